# bandwidth.gp — report plot 4: every op's bandwidth, its bytes (read +
# written) / its time, per variant (bars), at an in-cache size (top) and the
# largest size most ops ran at (bottom), warm cache; the black dash is a memcpy
# of the same bytes in the same run, the dashed lines the machine's copy
# bandwidth per cache level (plot 3). An op at or above its dash moves its
# bytes as fast as a copy does; far below, it is limited by arithmetic.
load datadir.'/vars.gp'
W = 1320
H = 1000
load scriptdir.'/common.gp'

set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border lc rgb '#333333'
set boxwidth 0.9
set logscale y
set xtics rotate by -55 scale 0 font ',8'
set grid ytics lc rgb '#e0e0e0'
set ylabel 'GB/s: op bytes / op time (log)'
set xrange [-0.7 : nops - 0.3]
set tmargin 3
set rmargin 12
array lname[4] = ['L1', 'L2', 'L3', 'DRAM']
array lmed[4] = [lv1_med, lv2_med, lv3_med, lv4_med]
# The legend gets its own band at the top of the canvas (4 % of it), above
# the top panel's title, so it never covers a title or a bar.
set multiplot
do for [k = 0:1] {
    n = k == 0 ? small_n : large_n
    set origin 0, (k == 0 ? 0.48 : 0)
    set size 1, (k == 0 ? 0.48 : 0.48)
    set title sprintf('GB/s per op at %d joints (warm cache); black dash: a copy of the same bytes', n)
    unset arrow
    unset label
    # Labels top-down, each at least 0.22 decades (one line of text) below
    # the one above, so close levels (L1 103, L2 97 GB/s) stay readable.
    ylab = 1e30
    do for [l = 1:4] {
        if (lmed[l] > 0) {
            set arrow l from graph 0, first lmed[l] to graph 1, first lmed[l] nohead dt 2 lc rgb '#666666' back
            ylab = (log10(lmed[l]) < ylab - 0.22) ? log10(lmed[l]) : ylab - 0.22
            set label l sprintf('%s copy %.0f', lname[l], lmed[l]) at graph 1, first 10**ylab offset 0.5, 0 font ',8' tc rgb '#444444'
        }
    }
    if (k == 0) { set key at screen 0.5, screen 0.995 center top horizontal font ',9' } else { unset key }
    plot for [v = 1:nvars] datadir.'/bandwidth.dat' index k using (column(v + 1)):xtic(1) lt v title word(variants, v), \
         '' index k using ($0 - 0.45):(column(nvars + 2)):(0.9):(0) with vectors nohead lw 3 lc rgb '#000000' \
             title 'copy of the same bytes'
}
unset multiplot
