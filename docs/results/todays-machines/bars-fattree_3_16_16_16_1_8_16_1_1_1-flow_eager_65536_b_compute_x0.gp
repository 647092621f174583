# mapsim report: hop-bytes and simulated time / in-order: fattree:3;16,16,16;1,8,16;1,1,1, flow (eager 65536 B, compute x0)
# Redraws bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.svg and bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.png: gnuplot bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.gp (in this directory).
reset
set terminal svg size 2072,600 dynamic enhanced font 'Helvetica,12'
set output 'bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.svg'
set termoption noenhanced
set key below horizontal
set linetype 1 lc rgb '#1f77b4'
set linetype 2 lc rgb '#ff7f0e'
set linetype 3 lc rgb '#2ca02c'
set linetype 4 lc rgb '#d62728'
set linetype 5 lc rgb '#9467bd'
set linetype 6 lc rgb '#8c564b'
set linetype 7 lc rgb '#e377c2'
set linetype 8 lc rgb '#7f7f7f'
set linetype 9 lc rgb '#bcbd22'
set linetype 10 lc rgb '#17becf'
set linetype 11 lc rgb '#aec7e8'
set linetype 12 lc rgb '#ffbb78'
set linetype 13 lc rgb '#98df8a'
set linetype 14 lc rgb '#ff9896'
set linetype 15 lc rgb '#c5b0d5'
set linetype 16 lc rgb '#c49c94'
set linetype 17 lc rgb '#f7b6d2'
set linetype 18 lc rgb '#c7c7c7'
set linetype 19 lc rgb '#dbdb8d'
set linetype 20 lc rgb '#9edae5'
set linetype cycle 20
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by 30 right scale 0 nomirror
set grid ytics
set lmargin 27
set yrange [0:*]
set ylabel 'ratio to in-order (lower is better)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb 'gray30'
set multiplot layout 1,2 title "hop-bytes and simulated time / in-order: fattree:3;16,16,16;1,8,16;1,1,1, flow (eager 65536 B, compute x0)"
unset key
set title 'hop-bytes / in-order'
plot 'bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.dat' using 2:xtic(1) title 'in-order' lt 1, \
  '' using 3 title 'best' lt 2, \
  '' using 4 title 'random' lt 3, \
  '' using 5 title 'scotch' lt 4, \
  '' using 6 title 'treematch' lt 5
set key outside right top vertical
set title 'simulated makespan_s / in-order'
plot 'bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.dat' using 7:xtic(1) title 'in-order' lt 1, \
  '' using 8 title 'best' lt 2, \
  '' using 9 title 'random' lt 3, \
  '' using 10 title 'scotch' lt 4, \
  '' using 11 title 'treematch' lt 5
unset multiplot
unset output
reset
set terminal pngcairo size 2072,600
set output 'bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.png'
set termoption noenhanced
set key below horizontal
set linetype 1 lc rgb '#1f77b4'
set linetype 2 lc rgb '#ff7f0e'
set linetype 3 lc rgb '#2ca02c'
set linetype 4 lc rgb '#d62728'
set linetype 5 lc rgb '#9467bd'
set linetype 6 lc rgb '#8c564b'
set linetype 7 lc rgb '#e377c2'
set linetype 8 lc rgb '#7f7f7f'
set linetype 9 lc rgb '#bcbd22'
set linetype 10 lc rgb '#17becf'
set linetype 11 lc rgb '#aec7e8'
set linetype 12 lc rgb '#ffbb78'
set linetype 13 lc rgb '#98df8a'
set linetype 14 lc rgb '#ff9896'
set linetype 15 lc rgb '#c5b0d5'
set linetype 16 lc rgb '#c49c94'
set linetype 17 lc rgb '#f7b6d2'
set linetype 18 lc rgb '#c7c7c7'
set linetype 19 lc rgb '#dbdb8d'
set linetype 20 lc rgb '#9edae5'
set linetype cycle 20
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set xtics rotate by 30 right scale 0 nomirror
set grid ytics
set lmargin 27
set yrange [0:*]
set ylabel 'ratio to in-order (lower is better)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb 'gray30'
set multiplot layout 1,2 title "hop-bytes and simulated time / in-order: fattree:3;16,16,16;1,8,16;1,1,1, flow (eager 65536 B, compute x0)"
unset key
set title 'hop-bytes / in-order'
plot 'bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.dat' using 2:xtic(1) title 'in-order' lt 1, \
  '' using 3 title 'best' lt 2, \
  '' using 4 title 'random' lt 3, \
  '' using 5 title 'scotch' lt 4, \
  '' using 6 title 'treematch' lt 5
set key outside right top vertical
set title 'simulated makespan_s / in-order'
plot 'bars-fattree_3_16_16_16_1_8_16_1_1_1-flow_eager_65536_b_compute_x0.dat' using 7:xtic(1) title 'in-order' lt 1, \
  '' using 8 title 'best' lt 2, \
  '' using 9 title 'random' lt 3, \
  '' using 10 title 'scotch' lt 4, \
  '' using 11 title 'treematch' lt 5
unset multiplot
unset output
