# common.gp — shared by the report's plot scripts (loaded after W and H are set):
# the terminal (pngcairo or svg, from fmt), white background, the data's
# conventions ('?' = not measured) and a colour per series.
# Called by posebench report as:
#   gnuplot -e "datadir='DIR/data'; outfile='DIR/NAME.png'; scriptdir='reports'; fmt='png'" <script>.gp
# with DIR/data/vars.gp (written by the report) naming the ops, variants, stages, ...
if (fmt eq 'svg') {
    set terminal svg size W,H dynamic font 'Helvetica,11' background rgb 'white' noenhanced
} else {
    set terminal pngcairo size W,H font 'Sans,9' background rgb 'white' noenhanced
}
set output outfile
set datafile missing '?'
set termoption noenhanced
# colour-blind-safe series colours (Okabe-Ito), then greys
set linetype 1 lc rgb '#0072B2' lw 1.5
set linetype 2 lc rgb '#E69F00' lw 1.5
set linetype 3 lc rgb '#009E73' lw 1.5
set linetype 4 lc rgb '#D55E00' lw 1.5
set linetype 5 lc rgb '#CC79A7' lw 1.5
set linetype 6 lc rgb '#56B4E9' lw 1.5
set linetype 7 lc rgb '#F0E442' lw 1.5
set linetype 8 lc rgb '#000000' lw 1.5
set linetype 9 lc rgb '#999999' lw 1.5
set linetype cycle 9
