# ns_per_joint.gp — report plot 1: ns per joint vs joints for every op, one
# line per variant (log-log); cold-cache runs as open points; dotted lines at
# the L1, L2 and L3 sizes in joints of the op's own bytes (cache bytes / the
# bench's "bytes" counter per joint), so each op shows where it leaves a cache.
load datadir.'/vars.gp'
cols = 6
rows = ceil(nops / (cols * 1.0))
W = cols * 330
H = rows * 250 + 80
load scriptdir.'/common.gp'

set logscale xy
set xrange [min_n / 1.6 : max_n * 1.6]
set format x '%.0e'
set format y '%g'
set xtics font ',7'
set ytics font ',7'
set grid lc rgb '#e0e0e0'
set multiplot layout rows, cols title \
  'ns per joint (median CPU time) vs joints; lines: warm cache, open points: cold cache; dotted: L1, L2, L3 in joints of the op''s bytes'
do for [i = 1:nops] {
    set title word(ops, i) font ',10'
    unset arrow
    unset label
    do for [l = 1:3] {
        x = l == 1 ? word(l1, i) + 0 : l == 2 ? word(l2, i) + 0 : word(l3, i) + 0
        if (x >= min_n && x <= max_n) {
            set arrow l from x, graph 0 to x, graph 1 nohead dt 3 lc rgb '#777777'
            set label l sprintf('L%d', l) at x, graph 0.93 offset 0.3, 0 font ',7' tc rgb '#777777'
        }
    }
    if (i == 1) { set key top left font ',8' samplen 2 spacing 0.9 opaque } else { unset key }
    # cold-cache columns only when the run had cold sizes (quick runs do not)
    if (has_cold) {
        plot for [v = 1:nvars] datadir.'/ns_per_joint.dat' index (i - 1) using 1:(column(v + 1)) \
                 with linespoints lt v pt 7 ps 0.45 title word(variants, v), \
             for [v = 1:nvars] datadir.'/ns_per_joint.dat' index (i - 1) using 1:(column(v + 1 + nvars)) \
                 with points lt v pt 6 ps 0.8 notitle
    } else {
        plot for [v = 1:nvars] datadir.'/ns_per_joint.dat' index (i - 1) using 1:(column(v + 1)) \
                 with linespoints lt v pt 7 ps 0.45 title word(variants, v)
    }
}
unset multiplot
