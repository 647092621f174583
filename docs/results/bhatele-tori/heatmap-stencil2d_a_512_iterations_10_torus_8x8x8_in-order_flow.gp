# mapsim report: link loads: stencil2d:A:512:iterations=10 on torus:8x8x8, in-order (flow)
# Redraws heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.svg and heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.png: gnuplot heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.gp (in this directory).
reset
set terminal svg size 1450,1380 dynamic enhanced font 'Helvetica,12'
set output 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.svg'
set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')
set cbrange [0:102496]
set cblabel 'bytes on the link'
set format cb '%.1s %cB'
set colorbox user origin screen 0.8966,0.0580 size screen 0.0138,0.8696
set xrange [-0.6:7.6]
set yrange [-0.6:7.6]
set size ratio -1
set xlabel 'x'
set xtics 1
set ylabel 'y'
set ytics 1
set multiplot layout 3,3 title 'link loads: stencil2d:A:512:iterations=10 on torus:8x8x8, in-order (flow)' noenhanced margins 0.0621,0.8690,0.0580,0.9275 spacing 0.0621,0.0725
set title 'z=0'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 0 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 1 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 2 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 3 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=1'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 4 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 5 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 6 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 7 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=2'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 8 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 9 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 10 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 11 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=3'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 12 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 13 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 14 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 15 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=4'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 16 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 17 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 18 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 19 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=5'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 20 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 21 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 22 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 23 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=6'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 24 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 25 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 26 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 27 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=7'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 28 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 29 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 30 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 31 using 1:2:3 with points pt 5 ps 2 lc palette notitle
unset multiplot
unset output
reset
set terminal pngcairo size 1450,1380
set output 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.png'
set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')
set cbrange [0:102496]
set cblabel 'bytes on the link'
set format cb '%.1s %cB'
set colorbox user origin screen 0.8966,0.0580 size screen 0.0138,0.8696
set xrange [-0.6:7.6]
set yrange [-0.6:7.6]
set size ratio -1
set xlabel 'x'
set xtics 1
set ylabel 'y'
set ytics 1
set multiplot layout 3,3 title 'link loads: stencil2d:A:512:iterations=10 on torus:8x8x8, in-order (flow)' noenhanced margins 0.0621,0.8690,0.0580,0.9275 spacing 0.0621,0.0725
set title 'z=0'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 0 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 1 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 2 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 3 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=1'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 4 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 5 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 6 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 7 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=2'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 8 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 9 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 10 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 11 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=3'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 12 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 13 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 14 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 15 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=4'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 16 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 17 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 18 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 19 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=5'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 20 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 21 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 22 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 23 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=6'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 24 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 25 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 26 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 27 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'z=7'
plot 'heatmap-stencil2d_a_512_iterations_10_torus_8x8x8_in-order_flow.dat' index 28 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 29 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 30 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 31 using 1:2:3 with points pt 5 ps 2 lc palette notitle
unset multiplot
unset output
