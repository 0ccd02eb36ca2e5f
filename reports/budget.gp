# budget.gp — report plot 6: every transition method as a point of its cost per
# frame for the crowd (x: the clips it samples + its transition ops) against
# its quality (left: peak velocity jump at the transition, log scale; right:
# mean deviation from the destination over the window); the budget as a line.
load datadir.'/vars.gp'
W = 1500
H = 640
load scriptdir.'/common.gp'

nb = |blab|
stats datadir.'/budget.dat' using 2 nooutput
xmax = STATS_max > budget_us ? STATS_max : budget_us
set xrange [0 : xmax * 1.15]
set grid lc rgb '#e0e0e0'
set xlabel sprintf('us per frame for %d characters (samples + transition)', budget_chars)
set arrow 1 from budget_us, graph 0 to budget_us, graph 1 nohead dt 2 lw 2 lc rgb '#c00000' front
set label 1 sprintf('budget %g us', budget_us) at budget_us, graph 0.04 offset -0.5, 0 right tc rgb '#c00000' font ',9'
set multiplot layout 1, 2 title sprintf('transition methods: cost vs quality on %s (lower left is better)', budget_quality)
set logscale y
set ylabel 'peak velocity jump at the transition (m/s, log)'
set title 'smoothness: the jump a viewer sees at the switch'
set key bottom left opaque box font ',9' spacing 1.1
plot for [i = 1:nb] datadir.'/budget.dat' every ::(i - 1)::(i - 1) using 2:3 \
         with points pt (i == 1 ? 5 : 7) ps 2 lt i title blab[i]
unset logscale y
unset key
set ylabel 'mean deviation from the destination over the window (cm)'
set title 'responsiveness: how far from the destination (cut: 0 by definition, not shown)'
plot for [i = 2:nb] datadir.'/budget.dat' every ::(i - 1)::(i - 1) using 2:4 \
         with points pt 7 ps 2 lt i notitle
unset multiplot
