# copy_ratio.gp — report plot 3: op time / copy-roofline time per op and
# variant (the bench's copy_ratio: a memcpy of exactly the op's bytes in the
# same run), log scale; 1 means the op runs as fast as moving its bytes.
load datadir.'/vars.gp'
W = nops * 42 + 160
W = W < 1200 ? 1200 : W
H = 900
load scriptdir.'/common.gp'

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border lc rgb '#333333'
set boxwidth 0.9
set logscale y
set xtics rotate by -50 scale 0 font ',8'
set grid ytics lc rgb '#e0e0e0'
set key top right horizontal font ',9'
set ylabel 'op time / copy time (log)'
set xrange [-0.7 : nops - 0.3]
set multiplot layout 2, 1
do for [k = 0:1] {
    n = k == 0 ? small_n : large_n
    set title sprintf('op / copy-roofline time at %d joints (warm cache; 1 = memory bound)', n)
    set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444' front
    plot for [v = 1:nvars] datadir.'/copy_ratio.dat' index k using (column(v + 1)):xtic(1) lt v title word(variants, v)
}
unset multiplot
