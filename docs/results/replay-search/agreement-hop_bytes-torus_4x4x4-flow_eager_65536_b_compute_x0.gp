# mapsim report: hop-bytes against simulated makespan_s (/ in-order): torus:4x4x4, flow (eager 65536 B, compute x0) (mean rho +0.76 over 4 workloads, 3 mostly tied)
# Redraws agreement-hop_bytes-torus_4x4x4-flow_eager_65536_b_compute_x0.svg and agreement-hop_bytes-torus_4x4x4-flow_eager_65536_b_compute_x0.png: gnuplot agreement-hop_bytes-torus_4x4x4-flow_eager_65536_b_compute_x0.gp (in this directory).
reset
set terminal svg size 1100,640 dynamic enhanced font 'Helvetica,12'
set output 'agreement-hop_bytes-torus_4x4x4-flow_eager_65536_b_compute_x0.svg'
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
set grid
set key outside right top vertical Left reverse
set xlabel 'hop-bytes / in-order'
set ylabel 'simulated makespan_s / in-order'
set title "hop-bytes against simulated makespan_s: torus:4x4x4, flow (eager 65536 B, compute x0)"
set label 1 'mean rho +0.76 over 4 workloads, 3 mostly tied' at graph 0.02, graph 0.95 left front
plot 'agreement-hop_bytes-torus_4x4x4-flow_eager_65536_b_compute_x0.dat' index 0 using 1:2:4 with points pt variable ps 1.3 lc 1 notitle, \
  '' index 1 using 1:2:4 with points pt variable ps 1.3 lc 2 notitle, \
  '' index 2 using 1:2:4 with points pt variable ps 1.3 lc 3 notitle, \
  '' index 3 using 1:2:4 with points pt variable ps 1.3 lc 4 notitle, \
  '' index 4 using 1:2:4 with points pt variable ps 1.3 lc 5 notitle, \
  '' index 5 using 1:2:4 with points pt variable ps 1.3 lc 6 notitle, \
  '' index 6 using 1:2:4 with points pt variable ps 1.3 lc 7 notitle, \
  '' index 7 using 1:2:4 with points pt variable ps 1.3 lc 8 notitle, \
  '' index 8 using 1:2:4 with points pt variable ps 1.3 lc 9 notitle, \
  keyentry with points pt 7 ps 1.3 lc 1 title 'in-order', \
  keyentry with points pt 7 ps 1.3 lc 2 title 'best', \
  keyentry with points pt 7 ps 1.3 lc 3 title 'best-congestion', \
  keyentry with points pt 7 ps 1.3 lc 4 title 'best-energy', \
  keyentry with points pt 7 ps 1.3 lc 5 title 'hilbert', \
  keyentry with points pt 7 ps 1.3 lc 6 title 'random', \
  keyentry with points pt 7 ps 1.3 lc 7 title 'replay-search', \
  keyentry with points pt 7 ps 1.3 lc 8 title 'scotch', \
  keyentry with points pt 7 ps 1.3 lc 9 title 'treematch', \
  keyentry with points pt 7 ps 1.3 lc rgb 'black' title 'npb:bt:C:64:iterations=2', \
  keyentry with points pt 5 ps 1.3 lc rgb 'black' title 'npb:cg:C:64:iterations=2', \
  keyentry with points pt 9 ps 1.3 lc rgb 'black' title 'npb:ft:C:64:iterations=1', \
  keyentry with points pt 11 ps 1.3 lc rgb 'black' title 'npb:is:C:64:iterations=1', \
  keyentry with points pt 13 ps 1.3 lc rgb 'black' title 'npb:lu:C:64:iterations=1', \
  keyentry with points pt 15 ps 1.3 lc rgb 'black' title 'npb:mg:C:64:iterations=1', \
  keyentry with points pt 4 ps 1.3 lc rgb 'black' title 'npb:sp:C:64:iterations=2'
unset output
reset
set terminal pngcairo size 1100,640
set output 'agreement-hop_bytes-torus_4x4x4-flow_eager_65536_b_compute_x0.png'
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
set grid
set key outside right top vertical Left reverse
set xlabel 'hop-bytes / in-order'
set ylabel 'simulated makespan_s / in-order'
set title "hop-bytes against simulated makespan_s: torus:4x4x4, flow (eager 65536 B, compute x0)"
set label 1 'mean rho +0.76 over 4 workloads, 3 mostly tied' at graph 0.02, graph 0.95 left front
plot 'agreement-hop_bytes-torus_4x4x4-flow_eager_65536_b_compute_x0.dat' index 0 using 1:2:4 with points pt variable ps 1.3 lc 1 notitle, \
  '' index 1 using 1:2:4 with points pt variable ps 1.3 lc 2 notitle, \
  '' index 2 using 1:2:4 with points pt variable ps 1.3 lc 3 notitle, \
  '' index 3 using 1:2:4 with points pt variable ps 1.3 lc 4 notitle, \
  '' index 4 using 1:2:4 with points pt variable ps 1.3 lc 5 notitle, \
  '' index 5 using 1:2:4 with points pt variable ps 1.3 lc 6 notitle, \
  '' index 6 using 1:2:4 with points pt variable ps 1.3 lc 7 notitle, \
  '' index 7 using 1:2:4 with points pt variable ps 1.3 lc 8 notitle, \
  '' index 8 using 1:2:4 with points pt variable ps 1.3 lc 9 notitle, \
  keyentry with points pt 7 ps 1.3 lc 1 title 'in-order', \
  keyentry with points pt 7 ps 1.3 lc 2 title 'best', \
  keyentry with points pt 7 ps 1.3 lc 3 title 'best-congestion', \
  keyentry with points pt 7 ps 1.3 lc 4 title 'best-energy', \
  keyentry with points pt 7 ps 1.3 lc 5 title 'hilbert', \
  keyentry with points pt 7 ps 1.3 lc 6 title 'random', \
  keyentry with points pt 7 ps 1.3 lc 7 title 'replay-search', \
  keyentry with points pt 7 ps 1.3 lc 8 title 'scotch', \
  keyentry with points pt 7 ps 1.3 lc 9 title 'treematch', \
  keyentry with points pt 7 ps 1.3 lc rgb 'black' title 'npb:bt:C:64:iterations=2', \
  keyentry with points pt 5 ps 1.3 lc rgb 'black' title 'npb:cg:C:64:iterations=2', \
  keyentry with points pt 9 ps 1.3 lc rgb 'black' title 'npb:ft:C:64:iterations=1', \
  keyentry with points pt 11 ps 1.3 lc rgb 'black' title 'npb:is:C:64:iterations=1', \
  keyentry with points pt 13 ps 1.3 lc rgb 'black' title 'npb:lu:C:64:iterations=1', \
  keyentry with points pt 15 ps 1.3 lc rgb 'black' title 'npb:mg:C:64:iterations=1', \
  keyentry with points pt 4 ps 1.3 lc rgb 'black' title 'npb:sp:C:64:iterations=2'
unset output
