# mapsim report: hop-bytes and simulated makespan_s / in-order against ranks: npb:lu:D:iterations=1 on fattree, flow (eager 65536 B, compute x0)
# Redraws scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.svg and scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.png: gnuplot scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.gp (in this directory).
reset
set terminal svg size 1280,560 dynamic enhanced font 'Helvetica,12'
set output 'scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.svg'
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
set logscale x 2
set xtics (1024, 4096)
set xrange [819.2:5120]
set grid
set xlabel 'MPI ranks'
set ylabel 'ratio to in-order (lower is better)'
set multiplot layout 1,2 title "hop-bytes and simulated makespan_s / in-order against ranks: npb:lu:D:iterations=1 on fattree, flow (eager 65536 B, compute x0)"
unset key
set title 'hop-bytes / in-order'
plot 'scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.dat' index 0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'in-order', \
  '' index 1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'best', \
  '' index 2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'random', \
  '' index 3 using 1:2 with linespoints lw 2 pt 7 lc 4 title 'scotch', \
  '' index 4 using 1:2 with linespoints lw 2 pt 7 lc 5 title 'treematch'
set key outside right top vertical
set title 'makespan_s / in-order'
plot 'scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.dat' index 5 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'in-order', \
  '' index 6 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'best', \
  '' index 7 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'random', \
  '' index 8 using 1:2 with linespoints lw 2 pt 7 lc 4 title 'scotch', \
  '' index 9 using 1:2 with linespoints lw 2 pt 7 lc 5 title 'treematch'
unset multiplot
unset output
reset
set terminal pngcairo size 1280,560
set output 'scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.png'
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
set logscale x 2
set xtics (1024, 4096)
set xrange [819.2:5120]
set grid
set xlabel 'MPI ranks'
set ylabel 'ratio to in-order (lower is better)'
set multiplot layout 1,2 title "hop-bytes and simulated makespan_s / in-order against ranks: npb:lu:D:iterations=1 on fattree, flow (eager 65536 B, compute x0)"
unset key
set title 'hop-bytes / in-order'
plot 'scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.dat' index 0 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'in-order', \
  '' index 1 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'best', \
  '' index 2 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'random', \
  '' index 3 using 1:2 with linespoints lw 2 pt 7 lc 4 title 'scotch', \
  '' index 4 using 1:2 with linespoints lw 2 pt 7 lc 5 title 'treematch'
set key outside right top vertical
set title 'makespan_s / in-order'
plot 'scaling-npb_lu_d_iterations_1-fattree-flow_eager_65536_b_compute_x0.dat' index 5 using 1:2 with linespoints lw 2 pt 7 lc 1 title 'in-order', \
  '' index 6 using 1:2 with linespoints lw 2 pt 7 lc 2 title 'best', \
  '' index 7 using 1:2 with linespoints lw 2 pt 7 lc 3 title 'random', \
  '' index 8 using 1:2 with linespoints lw 2 pt 7 lc 4 title 'scotch', \
  '' index 9 using 1:2 with linespoints lw 2 pt 7 lc 5 title 'treematch'
unset multiplot
unset output
