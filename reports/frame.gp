# frame.gp — report plot 5: the frame pipeline, microseconds per frame for the
# whole crowd, stacked by stage, one bar per variant and transition method,
# one panel per scene (skeleton); the whole-frame time labels each bar.
load datadir.'/vars.gp'
W = frame_bars * 85 + 260
W = W < 1000 ? 1000 : W
H = nscenes * 430 + 40
load scriptdir.'/common.gp'

set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border lc rgb '#333333'
set boxwidth 0.7
set xtics rotate by -35 scale 0 font ',8'
set grid ytics lc rgb '#e0e0e0'
set ylabel 'us per frame (crowd)'
set key outside right top vertical font ',9'
set offsets 0, 0, graph 0.08, 0
set multiplot layout nscenes, 1
do for [s = 1:nscenes] {
    set title word(scenes, s).': us per frame per stage (stacked); labels: the whole frame timed as one block'
    plot for [k = 1:nstages] datadir.'/frame.dat' index (s - 1) using (column(k + 1)):xtic(1) lt k title word(stages, k), \
         '' index (s - 1) using 0:(column(nstages + 2)):(sprintf('%.0f', column(nstages + 2))) \
             with labels offset 0, 0.8 font ',8' notitle
}
unset multiplot
