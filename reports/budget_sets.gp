# budget_sets.gp — report plot 9: every transition method as a point of its own
# cost per frame for the crowd (x) against four quality metrics on budget's
# transition sets (y, medians or 90th percentiles over each set's transitions; panels named in
# bspanel): lower left is better, the methods on the lower-left edge are the
# Pareto front the budget section names. Every method has its own colour and
# marker (open shapes and cycling sizes, as plot 7), up to 14 methods.
load datadir.'/vars.gp'
W = 1320
H = 900
load scriptdir.'/common.gp'

nb = |bslab|
array mcol[14] = ['#000000', '#E69F00', '#0072B2', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', \
                  '#882255', '#999933', '#332288', '#AA4499', '#44AA99', '#661100', '#888888']
array mpt[14] = [5, 6, 4, 8, 10, 12, 14, 1, 2, 3, 7, 9, 11, 13]
array msz[14] = [1.4, 1.6, 1.9, 2.2, 1.6, 1.9, 2.2, 1.6, 1.9, 2.2, 1.0, 1.1, 1.0, 1.1]
mc(i) = mcol[(i - 1) % 14 + 1]
mp(i) = mpt[(i - 1) % 14 + 1]
ms(i) = msz[(i - 1) % 14 + 1]
# each panel's top, from the blending methods (the cut, row 1, pops: hundreds of times the clips' jerk),
# before any range is set (stats honours them)
array ytops[4]
do for [p = 1:4] {
    stats datadir.'/budget_sets.dat' every ::1 using (column(p + 2)) nooutput
    ytops[p] = STATS_max > 0 ? STATS_max * 1.3 : 1
}
stats datadir.'/budget_sets.dat' using 2 nooutput
set xrange [0 : STATS_max * 1.15]
set grid lc rgb '#e0e0e0'
set xlabel 'us per frame for the crowd (the method: samples + transition; from 0)'
set bmargin 9
set key at screen 0.5, screen 0.005 center bottom horizontal maxcols 6 font ',9' spacing 1.3 width 2
set multiplot layout 2, 2 title 'transition methods: cost vs quality on the transition sets (lower left is better; a method far above, like the cut, is drawn at the top edge)'
do for [p = 1:4] {
    col = p + 2
    ytop = ytops[p]
    set yrange [0 : ytop]
    set title bspanel[p]
    set ylabel ''
    if (p > 1) { unset key }
    plot for [i = 1:nb] datadir.'/budget_sets.dat' every ::(i - 1)::(i - 1) using 2:(column(col) > ytop ? ytop * 0.97 : column(col)) \
             with points pt mp(i) ps ms(i) lw 2 lc rgb mc(i) title bslab[i]
}
unset multiplot
