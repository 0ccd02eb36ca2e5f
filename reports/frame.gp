# frame.gp — report plot 6: the frame pipeline, microseconds per frame for the
# whole crowd, stacked by stage, one bar per variant and transition method,
# one row of panels per scene (skeleton). Scalar (left) and the SIMD variants
# (right) each have their own y axis from 0: scalar's ~10 ms would flatten
# the SIMD bars (~1 ms) on a shared one. The whole frame, timed as one block,
# labels each bar (it differs from the stacked sum by the stages' overlap).
load datadir.'/vars.gp'
W = 1320
H = nscenes * 440 + 60
load scriptdir.'/common.gp'

set style data histograms
set style histogram rowstacked
set style fill solid 0.9 border lc rgb '#333333'
set boxwidth 0.7
set xtics rotate by -35 scale 0 font ',8'
set grid ytics lc rgb '#e0e0e0'
set yrange [0 : *]
set offsets 0, 0, graph 0.1, 0
set bmargin 5
set multiplot title 'frame pipeline: us per frame for the crowd per stage (stacked); labels: the whole frame timed as one block'
ph = (1.0 - 40.0 / H) / nscenes
sw = frame_scalar_bars > 0 ? 0.30 : 0.0
do for [s = 1:nscenes] {
    oy = 1.0 - 40.0 / H - s * ph
    if (sw > 0) {
        set origin 0, oy
        set size sw, ph
        unset key
        set ylabel 'us per frame (crowd)'
        set title word(scenes, s).': scalar'
        plot for [k = 1:nstages] datadir.'/frame.dat' index (2 * s - 2) using (column(k + 1)):xtic(1) lt k notitle, \
             '' index (2 * s - 2) using 0:(column(nstages + 2)):(sprintf('%.0f', column(nstages + 2))) \
                 with labels offset 0, 0.8 font ',8' notitle
    }
    set origin sw, oy
    set size 1 - sw, ph
    set key outside right top vertical font ',9' title 'stage'
    set ylabel sw > 0 ? 'us per frame (crowd; own scale)' : 'us per frame (crowd)'
    set title word(scenes, s).': SIMD variants'
    plot for [k = 1:nstages] datadir.'/frame.dat' index (2 * s - 1) using (column(k + 1)):xtic(1) lt k title word(stages, k), \
         '' index (2 * s - 1) using 0:(column(nstages + 2)):(sprintf('%.0f', column(nstages + 2))) \
             with labels offset 0, 0.8 font ',8' notitle
}
unset multiplot
