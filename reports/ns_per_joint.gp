# ns_per_joint.gp — report plot 1: ns per joint vs joints for every op, one
# line per variant (log-log); cold-cache runs as open points; dotted lines at
# the L1, L2 and L3 sizes in joints of the op's own bytes (cache bytes / the
# bench's "bytes" counter per joint), so each op shows where it leaves a cache.
# Every panel has its own axis labels; the legend has a cell of its own (the
# first), so it covers no line or label.
load datadir.'/vars.gp'
cols = 4
rows = ceil((nops + 1) / (cols * 1.0))
W = cols * 330
H = rows * 260 + 80
load scriptdir.'/common.gp'

set logscale xy
set xrange [min_n / 1.6 : max_n * 1.6]
set format x '%.0s%c'
set format y '%g'
set xtics font ',8'
set ytics font ',8'
set xlabel 'joints (log)' font ',8' offset 0, 0.6
set ylabel 'ns per joint (log)' font ',8' offset 1.2, 0
set grid lc rgb '#e0e0e0'
set multiplot layout rows, cols title \
  "ns per joint (median CPU time) vs joints, one panel per op (own y axis)\nlines: warm cache; open points: cold cache; dotted: where the op's bytes fill L1, L2, L3"
# the legend's cell
set title 'legend' font ',10'
unset border
unset tics
unset xlabel
unset ylabel
unset grid
unset logscale
set xrange [0 : 1]
set yrange [0 : 1]
set key center center font ',10' samplen 3 spacing 1.3
plot for [v = 1:nvars] NaN with linespoints lt v pt 7 ps 0.6 title word(variants, v).' (warm)', \
     for [v = 1:(has_cold ? nvars : 0)] NaN with points lt v pt 6 ps 1 title word(variants, v).' (cold cache)'
set border
set tics
set xtics font ',8'
set ytics font ',8'
set xlabel 'joints (log)' font ',8' offset 0, 0.6
set ylabel 'ns per joint (log)' font ',8' offset 1.2, 0
set grid lc rgb '#e0e0e0'
set logscale xy
set xrange [min_n / 1.6 : max_n * 1.6]
set autoscale y
unset key
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
