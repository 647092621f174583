# mapsim report: communication matrix: snap:ohtma:1024:iterations=1:inners=1:ng=6
# Redraws matrix-snap_ohtma_1024_iterations_1_inners_1_ng_6.svg and matrix-snap_ohtma_1024_iterations_1_inners_1_ng_6.png: gnuplot matrix-snap_ohtma_1024_iterations_1_inners_1_ng_6.gp (in this directory).
reset
set terminal svg size 760,680 dynamic enhanced font 'Helvetica,12'
set output 'matrix-snap_ohtma_1024_iterations_1_inners_1_ng_6.svg'
set title 'communication matrix: snap:ohtma:1024:iterations=1:inners=1:ng=6' noenhanced
set size ratio -1
set xrange [-0.5:127.5]
set yrange [127.5:-0.5]
set xlabel 'receiver rank (cells of 8 ranks)'
set ylabel 'sender rank (cells of 8 ranks)'
set palette defined (0 '#fff5eb', 0.4 '#fdae6b', 0.7 '#e6550d', 1 '#7f2704')
set logscale cb
set cbrange [1:66065524]
set cblabel 'bytes'
set format cb '%.0s %cB'
plot 'matrix-snap_ohtma_1024_iterations_1_inners_1_ng_6.dat' using 1:2:3 with image notitle
unset output
reset
set terminal pngcairo size 760,680
set output 'matrix-snap_ohtma_1024_iterations_1_inners_1_ng_6.png'
set title 'communication matrix: snap:ohtma:1024:iterations=1:inners=1:ng=6' noenhanced
set size ratio -1
set xrange [-0.5:127.5]
set yrange [127.5:-0.5]
set xlabel 'receiver rank (cells of 8 ranks)'
set ylabel 'sender rank (cells of 8 ranks)'
set palette defined (0 '#fff5eb', 0.4 '#fdae6b', 0.7 '#e6550d', 1 '#7f2704')
set logscale cb
set cbrange [1:66065524]
set cblabel 'bytes'
set format cb '%.0s %cB'
plot 'matrix-snap_ohtma_1024_iterations_1_inners_1_ng_6.dat' using 1:2:3 with image notitle
unset output
