# copy_levels.gp — report plot 3: this machine's copy bandwidth per cache level.
# Every warm copy/<op>/<n> row of the bench (a memcpy of exactly an op's bytes)
# is a point: x its working set (bytes read + written), y its GB/s; coloured
# by the cache level it measures (grey: near a boundary, not counted). The
# vertical lines are the caches' sizes, the thick segments each level's median.
load datadir.'/vars.gp'
W = 1300
H = 560
load scriptdir.'/common.gp'

stats datadir.'/copy_levels.dat' using 1:2 nooutput
xmin = STATS_min_x / 2
xmax = STATS_max_x * 2
ymax = STATS_max_y * 1.15
set logscale x 2
set xrange [xmin : xmax]
set yrange [0 : ymax]
set format x '%.0b%B'
set xtics 4 font ',9'
set grid lc rgb '#e0e0e0'
set xlabel 'working set of the copy: bytes read + written per call (log; B, KiB, MiB, GiB)'
set ylabel 'GB/s (1e9 bytes per second; from 0)'
set title "copy bandwidth of this machine: every warm copy row of the bench (a memcpy of one op's bytes), by working set\n" . \
          "dotted: cache sizes; thick segments: the median of the rows counted for each level (grey rows sit near a boundary)"
set key outside right top vertical font ',9'
array lname[4] = ['L1', 'L2', 'L3', 'DRAM']
array lcache[4] = [lv1_cache, lv2_cache, lv3_cache, 0]
array lmed[4] = [lv1_med, lv2_med, lv3_med, lv4_med]
array lmin[4] = [lv1_min, lv2_min, lv3_min, lv4_min]
array lmax[4] = [lv1_max, lv2_max, lv3_max, lv4_max]
array lrows[4] = [lv1_rows, lv2_rows, lv3_rows, lv4_rows]
do for [l = 1:3] {
    if (lcache[l] > xmin && lcache[l] < xmax) {
        set arrow 10 + l from lcache[l], graph 0 to lcache[l], graph 1 nohead dt 3 lc rgb '#777777'
        set label 10 + l sprintf('%s cache', lname[l]) at lcache[l], graph 0.97 offset 0.4, 0 font ',9' tc rgb '#555555'
    }
}
do for [l = 1:4] {
    if (lrows[l] > 0) {
        x0 = lmin[l] > xmin ? lmin[l] : xmin
        x1 = (lmax[l] > 0 && lmax[l] < xmax) ? lmax[l] : xmax
        set arrow 20 + l from x0, lmed[l] to x1, lmed[l] nohead lw 4 lt l front
        set label 20 + l sprintf('%s: %.0f GB/s', lname[l], lmed[l]) at sqrt(x0 * x1), lmed[l] \
            offset 0, 1 center font ',10' tc lt l front
    }
}
plot for [l = 0:3] datadir.'/copy_levels.dat' using 1:($3 == l ? $2 : NaN) with points pt 7 ps 0.8 lt (l + 1) \
         title sprintf('%s rows (%d)', lname[l + 1], lrows[l + 1]), \
     '' using 1:($3 < 0 ? $2 : NaN) with points pt 6 ps 0.8 lc rgb '#999999' title 'near a boundary'
