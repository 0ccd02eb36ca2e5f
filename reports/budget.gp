# budget.gp — report plot 7: every transition method as a point of its cost per
# frame for the crowd (x: the clips it samples + its transition ops) against
# its quality (left: peak velocity jump at the transition; right: mean
# deviation from the destination over the window); the budget as a line (or a note when
# it lies far right of every method).
# Every axis starts at 0. A point far above the others (a cut's jump) is
# drawn at the top edge with its value written next to it. Every method has
# its own colour and its own marker (open shapes, so a point drawn over
# another leaves both visible), for up to 14 methods; the legend shows each.
load datadir.'/vars.gp'
W = 1320
H = 700
load scriptdir.'/common.gp'

nb = |blab|
array mcol[14] = ['#000000', '#E69F00', '#0072B2', '#009E73', '#D55E00', '#CC79A7', '#56B4E9', \
                  '#882255', '#999933', '#332288', '#AA4499', '#44AA99', '#661100', '#888888']
array mpt[14] = [5, 6, 4, 8, 10, 12, 14, 1, 2, 3, 7, 9, 11, 13]
mc(i) = mcol[(i - 1) % 14 + 1]
mp(i) = mpt[(i - 1) % 14 + 1]
# sizes cycle too, so two methods on one spot draw one shape inside the other; the filled
# markers are small, so one drawn over an open marker leaves the open one visible around it
array msz[14] = [1.4, 1.6, 1.9, 2.2, 1.6, 1.9, 2.2, 1.6, 1.9, 2.2, 1.0, 1.1, 1.0, 1.1]
ms(i) = msz[(i - 1) % 14 + 1]
stats datadir.'/budget.dat' using 2 nooutput
# x from 0 to a little past the dearest method: the budget line where it falls inside,
# else a note at the right edge (every method then costs a fraction of it)
xmax = STATS_max * 1.25
if (budget_us <= xmax) { xmax = budget_us * 1.1 > xmax ? budget_us * 1.1 : xmax }
# the left axis: up to 1.3 x the largest jump after the first row (the cut)
stats datadir.'/budget.dat' every ::1 using 3 nooutput
ytop = STATS_max * 1.3
clip(y) = y > ytop ? ytop * 0.97 : y
set xrange [0 : xmax]
set grid lc rgb '#e0e0e0'
set xlabel sprintf('us per frame for %d characters (samples + transition; from 0)', budget_chars)
if (budget_us <= xmax) {
    set arrow 1 from budget_us, graph 0 to budget_us, graph 1 nohead dt 2 lw 2 lc rgb '#c00000' front
    set label 1 sprintf('budget %g us', budget_us) at budget_us, graph 0.04 offset -0.5, 0 right tc rgb '#c00000' font ',9'
} else {
    set label 1 sprintf('budget %g us: off the axis, to the right', budget_us) at graph 0.98, graph 0.04 right tc rgb '#c00000' font ',9'
}
set bmargin 13
set key at screen 0.5, screen 0.005 center bottom horizontal maxcols 4 font ',9' spacing 1.3 width 3
set multiplot layout 1, 2 title sprintf('transition methods: cost vs quality on %s (lower left is better)', budget_quality)
set yrange [0 : ytop]
set ylabel 'peak velocity jump at the transition (m/s, from 0)'
set title 'smoothness: the jump a viewer sees at the switch'
plot for [i = 1:nb] datadir.'/budget.dat' every ::(i - 1)::(i - 1) using 2:(clip($3)) \
         with points pt mp(i) ps ms(i) lw 2 lc rgb mc(i) title blab[i], \
     datadir.'/budget.dat' using 2:($3 > ytop ? ytop * 0.97 : NaN):(sprintf('%s: %.3g m/s (off scale)', stringcolumn(1), $3)) \
         with labels left offset 1.5, 0 font ',9' notitle
unset key
set yrange [0 : *]
set ylabel 'mean deviation from the destination over the window (cm, from 0)'
set title 'responsiveness: how far from the destination (cut: 0 by definition, not shown)'
plot for [i = 2:nb] datadir.'/budget.dat' every ::(i - 1)::(i - 1) using 2:4 \
         with points pt mp(i) ps ms(i) lw 2 lc rgb mc(i) notitle
unset multiplot
