# scaling.gp — report plot 8: the frame in blocks of characters. Left: one
# thread, staged (each stage over every block) against fused (each block
# through every stage), us per frame, one pair of bars per scene, SIMD variant
# and method. Right: the fused frame on 1 .. N threads, characters per ms
# (higher is better; log axis), one line per scene and method of the fastest variant; dashed, the same series' copy
# roofline: characters per ms if the frame were one memcpy of the 3 poses per
# character it must stream (state, delta, globals; the rest stays in scratch) on
# as many threads. Scalar is left out (ten times slower; it is in the table).
load datadir.'/vars.gp'
W = 1320
H = 560
load scriptdir.'/common.gp'

set grid ytics lc rgb '#e0e0e0'
set multiplot layout 1, 2 title 'the frame by character block: fusion on one thread, then threads'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.9 border lc rgb '#333333'
set boxwidth 0.9
set xtics rotate by -35 scale 0 font ',8'
set yrange [0 : *]
set offsets 0, 0, graph 0.1, 0
set bmargin 8
set key top left font ',9'
set ylabel 'us per frame, one thread (CPU time, from 0)'
set title 'staged vs fused'
plot datadir.'/scaling.dat' index 0 using 2:xtic(1) lt 9 title 'staged (stage by stage)', \
     '' index 0 using 3 lt 1 title 'fused (block by block)'
unset style
set style data linespoints
set xtics norotate scale 1 font ',9'
set xtics 1
set xrange [0.8 : scaling_max_threads + 0.2]
# log scale: the roofline is 5-20x the frame, which on a linear axis from 0 left the frame's
# own lines flat along the bottom; on a log axis equal ratios are equal heights, so a line's
# rise from 1 to 2 threads reads as its speedup and its gap to the dashed line as x the copy
set logscale y
set yrange [* : *]
set offsets 0, 0, 0, 0
set xlabel 'threads'
set ylabel 'characters per ms (fused, wall time; log scale)'
set title sprintf('threads, %s (the fastest variant; dashed: copy roofline of the same series)', scaling_variant)
set key top left font ',8' maxrows 8
plot for [i = 1:scaling_series] datadir.'/scaling.dat' index i using 1:2 lt i pt 7 title word(scaling_labels, i), \
     for [i = 1:scaling_series] '' index i using 1:3 lt i dt 2 pt 0 notitle
unset multiplot
