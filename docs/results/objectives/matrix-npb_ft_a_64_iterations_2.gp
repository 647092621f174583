# mapsim report: communication matrix: npb:ft:A:64:iterations=2
# Redraws matrix-npb_ft_a_64_iterations_2.svg and matrix-npb_ft_a_64_iterations_2.png: gnuplot matrix-npb_ft_a_64_iterations_2.gp (in this directory).
reset
set terminal svg size 760,680 dynamic enhanced font 'Helvetica,12'
set output 'matrix-npb_ft_a_64_iterations_2.svg'
set title 'communication matrix: npb:ft:A:64:iterations=2' noenhanced
set size ratio -1
set xrange [-0.5:63.5]
set yrange [63.5:-0.5]
set xlabel 'receiver rank'
set ylabel 'sender rank'
set palette defined (0 '#fff5eb', 0.4 '#fdae6b', 0.7 '#e6550d', 1 '#7f2704')
set logscale cb
set cbrange [1:131104]
set cblabel 'bytes'
set format cb '%.0s %cB'
plot 'matrix-npb_ft_a_64_iterations_2.dat' using 1:2:3 with image notitle
unset output
reset
set terminal pngcairo size 760,680
set output 'matrix-npb_ft_a_64_iterations_2.png'
set title 'communication matrix: npb:ft:A:64:iterations=2' noenhanced
set size ratio -1
set xrange [-0.5:63.5]
set yrange [63.5:-0.5]
set xlabel 'receiver rank'
set ylabel 'sender rank'
set palette defined (0 '#fff5eb', 0.4 '#fdae6b', 0.7 '#e6550d', 1 '#7f2704')
set logscale cb
set cbrange [1:131104]
set cblabel 'bytes'
set format cb '%.0s %cB'
plot 'matrix-npb_ft_a_64_iterations_2.dat' using 1:2:3 with image notitle
unset output
