# mapsim report: link loads: npb:bt:D:4096:iterations=1 on tianhe3:8x8:nodes=64, best (static), static routes
# Redraws heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.svg and heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.png: gnuplot heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.gp (in this directory).
reset
set terminal svg size 1180,482 dynamic enhanced font 'Helvetica,12'
set output 'heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.svg'
set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')
set cbrange [0:189502560]
set cblabel 'bytes on the link'
set format cb '%.1s %cB'
set colorbox user origin screen 0.8729,0.1660 size screen 0.0169,0.6266
set xrange [-0.5:15.5]
set yrange [7.5:-0.5]
set size ratio -1
set xlabel 'chip column / side (L left, R right)'
set ylabel 'chip row'
set xtics ('0L' 0, '0R' 1, '1L' 2, '1R' 3, '2L' 4, '2R' 5, '3L' 6, '3R' 7, '4L' 8, '4R' 9, '5L' 10, '5R' 11, '6L' 12, '6R' 13, '7L' 14, '7R' 15)
set ytics 1
set arrow 1 from first 1.5, graph 0 to first 1.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 2 from first 3.5, graph 0 to first 3.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 3 from first 5.5, graph 0 to first 5.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 4 from first 7.5, graph 0 to first 7.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 5 from first 9.5, graph 0 to first 9.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 6 from first 11.5, graph 0 to first 11.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 7 from first 13.5, graph 0 to first 13.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set multiplot layout 1,2 title 'link loads: npb:bt:D:4096:iterations=1 on tianhe3:8x8:nodes=64, best (static), static routes' noenhanced margins 0.0763,0.8390,0.1660,0.7925 spacing 0.0763,0.2075
set title 'node links: the busiest per side router'
plot 'heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.dat' index 0 using 1:2:(0.5):(0.5):3 with boxxy fs solid 1.0 noborder fc palette notitle
set title 'switch and cross links: the busiest per side router'
plot 'heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.dat' index 1 using 1:2:(0.5):(0.5):3 with boxxy fs solid 1.0 noborder fc palette notitle
unset multiplot
unset output
reset
set terminal pngcairo size 1180,482
set output 'heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.png'
set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')
set cbrange [0:189502560]
set cblabel 'bytes on the link'
set format cb '%.1s %cB'
set colorbox user origin screen 0.8729,0.1660 size screen 0.0169,0.6266
set xrange [-0.5:15.5]
set yrange [7.5:-0.5]
set size ratio -1
set xlabel 'chip column / side (L left, R right)'
set ylabel 'chip row'
set xtics ('0L' 0, '0R' 1, '1L' 2, '1R' 3, '2L' 4, '2R' 5, '3L' 6, '3R' 7, '4L' 8, '4R' 9, '5L' 10, '5R' 11, '6L' 12, '6R' 13, '7L' 14, '7R' 15)
set ytics 1
set arrow 1 from first 1.5, graph 0 to first 1.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 2 from first 3.5, graph 0 to first 3.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 3 from first 5.5, graph 0 to first 5.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 4 from first 7.5, graph 0 to first 7.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 5 from first 9.5, graph 0 to first 9.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 6 from first 11.5, graph 0 to first 11.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set arrow 7 from first 13.5, graph 0 to first 13.5, graph 1 nohead front lc rgb '#ffffff' lw 2
set multiplot layout 1,2 title 'link loads: npb:bt:D:4096:iterations=1 on tianhe3:8x8:nodes=64, best (static), static routes' noenhanced margins 0.0763,0.8390,0.1660,0.7925 spacing 0.0763,0.2075
set title 'node links: the busiest per side router'
plot 'heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.dat' index 0 using 1:2:(0.5):(0.5):3 with boxxy fs solid 1.0 noborder fc palette notitle
set title 'switch and cross links: the busiest per side router'
plot 'heatmap-npb_bt_d_4096_iterations_1_tianhe3_8x8_nodes_64_best_static.dat' index 1 using 1:2:(0.5):(0.5):3 with boxxy fs solid 1.0 noborder fc palette notitle
unset multiplot
unset output
