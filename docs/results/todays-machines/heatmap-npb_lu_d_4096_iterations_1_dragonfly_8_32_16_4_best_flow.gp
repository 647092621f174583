# mapsim report: link loads: npb:lu:D:4096:iterations=1 on dragonfly:8,32,16,4, best (flow)
# Redraws heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.svg and heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.png: gnuplot heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.gp (in this directory).
reset
set terminal svg size 1630,640 dynamic enhanced font 'Helvetica,12'
set output 'heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.svg'
set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')
set cbrange [0:37575936]
set cblabel 'bytes on the link'
set format cb '%.1s %cB'
set colorbox user origin screen 0.9080,0.1250 size screen 0.0123,0.7188
set multiplot layout 1,3 title 'link loads: npb:lu:D:4096:iterations=1 on dragonfly:8,32,16,4, best (flow)' noenhanced margins 0.0552,0.8834,0.1250,0.8438 spacing 0.0552,0.1562
set size ratio -1
set xrange [-0.5:7.5]
set xlabel 'to group'
set xtics 1
set yrange [7.5:-0.5]
set ylabel 'from group'
set ytics 1
set title 'global links, group to group'
plot 'heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.dat' index 0 using 1:2:3:4:5 with boxxy fs solid 1.0 noborder fc palette notitle
set size noratio
set xrange [-0.5:31.5]
set xlabel 'router in its group'
set xtics autofreq
set yrange [7.5:-0.5]
set ylabel 'group'
set ytics 1
set title 'local links sent, per router'
plot 'heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.dat' index 1 using 1:2:3:4:5 with boxxy fs solid 1.0 noborder fc palette notitle
set size noratio
set xrange [-0.5:31.5]
set xlabel 'router in its group'
set xtics autofreq
set yrange [7.5:-0.5]
set ylabel 'group'
set ytics 1
set title 'host links, per router'
plot 'heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.dat' index 2 using 1:2:3:4:5 with boxxy fs solid 1.0 noborder fc palette notitle
unset multiplot
unset output
reset
set terminal pngcairo size 1630,640
set output 'heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.png'
set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')
set cbrange [0:37575936]
set cblabel 'bytes on the link'
set format cb '%.1s %cB'
set colorbox user origin screen 0.9080,0.1250 size screen 0.0123,0.7188
set multiplot layout 1,3 title 'link loads: npb:lu:D:4096:iterations=1 on dragonfly:8,32,16,4, best (flow)' noenhanced margins 0.0552,0.8834,0.1250,0.8438 spacing 0.0552,0.1562
set size ratio -1
set xrange [-0.5:7.5]
set xlabel 'to group'
set xtics 1
set yrange [7.5:-0.5]
set ylabel 'from group'
set ytics 1
set title 'global links, group to group'
plot 'heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.dat' index 0 using 1:2:3:4:5 with boxxy fs solid 1.0 noborder fc palette notitle
set size noratio
set xrange [-0.5:31.5]
set xlabel 'router in its group'
set xtics autofreq
set yrange [7.5:-0.5]
set ylabel 'group'
set ytics 1
set title 'local links sent, per router'
plot 'heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.dat' index 1 using 1:2:3:4:5 with boxxy fs solid 1.0 noborder fc palette notitle
set size noratio
set xrange [-0.5:31.5]
set xlabel 'router in its group'
set xtics autofreq
set yrange [7.5:-0.5]
set ylabel 'group'
set ytics 1
set title 'host links, per router'
plot 'heatmap-npb_lu_d_4096_iterations_1_dragonfly_8_32_16_4_best_flow.dat' index 2 using 1:2:3:4:5 with boxxy fs solid 1.0 noborder fc palette notitle
unset multiplot
unset output
