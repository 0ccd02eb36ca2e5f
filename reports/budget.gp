# budget.gp — report plot 7: every transition method as a point of its cost per
# frame for the crowd (x: the clips it samples + its transition ops) against
# its quality (left: peak velocity jump at the transition; right: mean
# deviation from the destination over the window); the budget as a line.
# Every axis starts at 0. A point far above the others (a cut's jump) is
# drawn at the top edge with its value written next to it.
load datadir.'/vars.gp'
W = 1320
H = 620
load scriptdir.'/common.gp'

nb = |blab|
stats datadir.'/budget.dat' using 2 nooutput
xmax = STATS_max > budget_us ? STATS_max : budget_us
# the left axis: up to 1.3 x the largest jump after the first row (the cut)
stats datadir.'/budget.dat' every ::1 using 3 nooutput
ytop = STATS_max * 1.3
clip(y) = y > ytop ? ytop * 0.97 : y
set xrange [0 : xmax * 1.15]
set grid lc rgb '#e0e0e0'
set xlabel sprintf('us per frame for %d characters (samples + transition; from 0)', budget_chars)
set arrow 1 from budget_us, graph 0 to budget_us, graph 1 nohead dt 2 lw 2 lc rgb '#c00000' front
set label 1 sprintf('budget %g us', budget_us) at budget_us, graph 0.04 offset -0.5, 0 right tc rgb '#c00000' font ',9'
set bmargin 10
set key at screen 0.5, screen 0.01 center bottom horizontal maxrows 2 font ',9' spacing 1.1 width 2
set multiplot layout 1, 2 title sprintf('transition methods: cost vs quality on %s (lower left is better)', budget_quality)
set yrange [0 : ytop]
set ylabel 'peak velocity jump at the transition (m/s, from 0)'
set title 'smoothness: the jump a viewer sees at the switch'
plot for [i = 1:nb] datadir.'/budget.dat' every ::(i - 1)::(i - 1) using 2:(clip($3)) \
         with points pt (i == 1 ? 5 : 7) ps 2 lt i title blab[i], \
     datadir.'/budget.dat' using 2:($3 > ytop ? ytop * 0.97 : NaN):(sprintf('%s: %.3g m/s (off scale)', stringcolumn(1), $3)) \
         with labels left offset 1.5, 0 font ',9' notitle
unset key
set yrange [0 : *]
set ylabel 'mean deviation from the destination over the window (cm, from 0)'
set title 'responsiveness: how far from the destination (cut: 0 by definition, not shown)'
plot for [i = 2:nb] datadir.'/budget.dat' every ::(i - 1)::(i - 1) using 2:4 \
         with points pt 7 ps 2 lt i notitle
unset multiplot
