# speedup.gp — report plot 2: speedup of each SIMD variant over scalar, per op
# (bars), warm cache, at an in-cache size (top) and the largest size (bottom).
load datadir.'/vars.gp'
W = 1320
H = 900
load scriptdir.'/common.gp'

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border lc rgb '#333333'
set boxwidth 0.9
set xtics rotate by -50 scale 0 font ',8'
set grid ytics lc rgb '#e0e0e0'
set tmargin 3
set ylabel 'scalar time / variant time'
set xrange [-0.7 : nops - 0.3]
set multiplot layout 2, 1
do for [k = 0:1] {
    n = k == 0 ? small_n : large_n
    set title sprintf('speedup over scalar at %d joints (warm cache)', n)
    set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#444444' front
    # the legend above the top panel, never over a bar
    if (k == 0) { set key at screen 0.5, screen 0.995 center top horizontal font ',9' } else { unset key }
    plot for [v = 1:nsvars] datadir.'/speedup.dat' index k using (column(v + 1)):xtic(1) lt v title word(svariants, v)
}
unset multiplot
