# mapsim report: link loads: npb:lu:C:64:iterations=1 on haec:4x4x4, replay-search (flow)
# Redraws heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.svg and heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.png: gnuplot heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.gp (in this directory).
reset
set terminal svg size 1220,1140 dynamic enhanced font 'Helvetica,12'
set output 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.svg'
set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')
set cbrange [0:3105000]
set cblabel 'bytes on the link'
set format cb '%.1s %cB'
set colorbox user origin screen 0.8770,0.0702 size screen 0.0164,0.8421
set xrange [-0.6:3.6]
set yrange [-0.6:3.6]
set size ratio -1
set xlabel 'x'
set xtics 1
set ylabel 'y'
set ytics 1
set multiplot layout 2,2 title 'link loads: npb:lu:C:64:iterations=1 on haec:4x4x4, replay-search (flow)' noenhanced margins 0.0738,0.8443,0.0702,0.9123 spacing 0.0738,0.0877
set title 'board z=0'
plot 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.dat' index 0 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 1 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 2 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 3 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'board z=1'
plot 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.dat' index 4 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 5 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 6 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 7 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'board z=2'
plot 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.dat' index 8 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 9 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 10 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 11 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'board z=3'
plot 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.dat' index 12 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 13 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 14 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 15 using 1:2:3 with points pt 5 ps 2 lc palette notitle
unset multiplot
unset output
reset
set terminal pngcairo size 1220,1140
set output 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.png'
set palette defined (0 '#e0e0e0', 0.3 '#fdd49e', 0.6 '#fc8d59', 1 '#7f0000')
set cbrange [0:3105000]
set cblabel 'bytes on the link'
set format cb '%.1s %cB'
set colorbox user origin screen 0.8770,0.0702 size screen 0.0164,0.8421
set xrange [-0.6:3.6]
set yrange [-0.6:3.6]
set size ratio -1
set xlabel 'x'
set xtics 1
set ylabel 'y'
set ytics 1
set multiplot layout 2,2 title 'link loads: npb:lu:C:64:iterations=1 on haec:4x4x4, replay-search (flow)' noenhanced margins 0.0738,0.8443,0.0702,0.9123 spacing 0.0738,0.0877
set title 'board z=0'
plot 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.dat' index 0 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 1 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 2 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 3 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'board z=1'
plot 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.dat' index 4 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 5 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 6 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 7 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'board z=2'
plot 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.dat' index 8 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 9 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 10 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 11 using 1:2:3 with points pt 5 ps 2 lc palette notitle
set title 'board z=3'
plot 'heatmap-npb_lu_c_64_iterations_1_haec_4x4x4_replay-search_flow_compute_0.dat' index 12 using 1:2 with points pt 7 ps 0.5 lc rgb '#969696' notitle, \
     '' index 13 using 1:2:3:4:5 with vectors nohead lw 3 lc palette notitle, \
     '' index 14 using 1:2:3:4:5 with vectors head filled size 0.12,25 lw 3 lc palette notitle, \
     '' index 15 using 1:2:3 with points pt 5 ps 2 lc palette notitle
unset multiplot
unset output
