# mapsim report: communication matrix: sweep3d:ohtma:1024:iterations=1
# Redraws matrix-sweep3d_ohtma_1024_iterations_1.svg and matrix-sweep3d_ohtma_1024_iterations_1.png: gnuplot matrix-sweep3d_ohtma_1024_iterations_1.gp (in this directory).
reset
set terminal svg size 760,680 dynamic enhanced font 'Helvetica,12'
set output 'matrix-sweep3d_ohtma_1024_iterations_1.svg'
set title 'communication matrix: sweep3d:ohtma:1024:iterations=1' noenhanced
set size ratio -1
set xrange [-0.5:127.5]
set yrange [127.5:-0.5]
set xlabel 'receiver rank (cells of 8 ranks)'
set ylabel 'sender rank (cells of 8 ranks)'
set palette defined (0 '#fff5eb', 0.4 '#fdae6b', 0.7 '#e6550d', 1 '#7f2704')
set logscale cb
set cbrange [1:4063196]
set cblabel 'bytes'
set format cb '%.0s %cB'
plot 'matrix-sweep3d_ohtma_1024_iterations_1.dat' using 1:2:3 with image notitle
unset output
reset
set terminal pngcairo size 760,680
set output 'matrix-sweep3d_ohtma_1024_iterations_1.png'
set title 'communication matrix: sweep3d:ohtma:1024:iterations=1' noenhanced
set size ratio -1
set xrange [-0.5:127.5]
set yrange [127.5:-0.5]
set xlabel 'receiver rank (cells of 8 ranks)'
set ylabel 'sender rank (cells of 8 ranks)'
set palette defined (0 '#fff5eb', 0.4 '#fdae6b', 0.7 '#e6550d', 1 '#7f2704')
set logscale cb
set cbrange [1:4063196]
set cblabel 'bytes'
set format cb '%.0s %cB'
plot 'matrix-sweep3d_ohtma_1024_iterations_1.dat' using 1:2:3 with image notitle
unset output
