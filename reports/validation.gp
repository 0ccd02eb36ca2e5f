# validation.gp — report plot 4: for every op x variant, the worst error of any
# of its metrics relative to that metric's bound in the tolerance table, as a
# heat map on a log scale. Most bounds are k x the float reference's own
# error (k = 4 for most ops), so a cell near 1/k means "as accurate as the
# float reference"; 1 is the bound; FAIL marks a failing row; grey '-' cells
# have no judged metric (reported only).
load datadir.'/vars.gp'
W = 480 + nvvars * 90
H = 150 + nvops * 19
load scriptdir.'/common.gp'

set lmargin 24
set rmargin at screen 0.80
set xrange [-0.5 : nvvars - 0.5]
set yrange [-0.5 : nvops - 0.5]
set xtics () scale 0 font ',9'
set ytics () scale 0 font ',9'
do for [v = 1:nvvars] { set xtics add (word(vvariants, v) v - 1) }
do for [o = 1:nvops] { set ytics add (word(vops, o) o - 1) }
set x2tics () scale 0 font ',9'
do for [v = 1:nvvars] { set x2tics add (word(vvariants, v) v - 1) }
set cbrange [-4 : 1]
set cbtics ('1e-4' -4, '1e-3' -3, '0.01' -2, '0.1' -1, '0.25 (4 x ref.)' log10(0.25), \
            '1: the bound' 0, '10' 1) font ',9'
set palette defined (-4 '#1a9850', -2.5 '#66bd63', -1.5 '#d9ef8b', -0.5 '#fee08b', 0 '#f46d43', 1 '#a50026')
set colorbox vertical user origin screen 0.82, screen 0.15 size screen 0.02, screen 0.7
set title "validation: worst error / bound over each op's metrics (variant vs double oracle; log colour scale)\n" . \
          "bounds are mostly 4 x the float reference's own error, so 0.25 = as accurate as the float reference"
set object 1 rect from graph 0, graph 0 to graph 1, graph 1 behind fc rgb '#eeeeee' fs solid noborder
unset key
plot datadir.'/validation.dat' using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 border lc rgb '#ffffff' fc palette, \
     '' using 1:2:4 with labels font ',7'
