# mapsim report: hop-bytes against simulated makespan_s (/ in-order): haec-sleep, flow (eager 65536 B, compute x0) (mean rho +0.37 over 5 workloads, 2 mostly tied)
# Redraws agreement-hop_bytes-haec-sleep-flow_eager_65536_b_compute_x0.svg and agreement-hop_bytes-haec-sleep-flow_eager_65536_b_compute_x0.png: gnuplot agreement-hop_bytes-haec-sleep-flow_eager_65536_b_compute_x0.gp (in this directory).
reset
set terminal svg size 1100,1128 dynamic enhanced font 'Helvetica,12'
set output 'agreement-hop_bytes-haec-sleep-flow_eager_65536_b_compute_x0.svg'
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
set title "hop-bytes against simulated makespan_s: haec-sleep, flow (eager 65536 B, compute x0)"
set label 1 'mean rho +0.37 over 5 workloads, 2 mostly tied' at graph 0.02, graph 0.95 left front
plot 'agreement-hop_bytes-haec-sleep-flow_eager_65536_b_compute_x0.dat' index 0 using 1:2:4 with points pt variable ps 1.3 lc 1 notitle, \
  '' index 1 using 1:2:4 with points pt variable ps 1.3 lc 2 notitle, \
  '' index 2 using 1:2:4 with points pt variable ps 1.3 lc 3 notitle, \
  '' index 3 using 1:2:4 with points pt variable ps 1.3 lc 4 notitle, \
  '' index 4 using 1:2:4 with points pt variable ps 1.3 lc 5 notitle, \
  '' index 5 using 1:2:4 with points pt variable ps 1.3 lc 6 notitle, \
  '' index 6 using 1:2:4 with points pt variable ps 1.3 lc 7 notitle, \
  '' index 7 using 1:2:4 with points pt variable ps 1.3 lc 8 notitle, \
  '' index 8 using 1:2:4 with points pt variable ps 1.3 lc 9 notitle, \
  '' index 9 using 1:2:4 with points pt variable ps 1.3 lc 10 notitle, \
  '' index 10 using 1:2:4 with points pt variable ps 1.3 lc 11 notitle, \
  '' index 11 using 1:2:4 with points pt variable ps 1.3 lc 12 notitle, \
  '' index 12 using 1:2:4 with points pt variable ps 1.3 lc 13 notitle, \
  '' index 13 using 1:2:4 with points pt variable ps 1.3 lc 14 notitle, \
  '' index 14 using 1:2:4 with points pt variable ps 1.3 lc 15 notitle, \
  '' index 15 using 1:2:4 with points pt variable ps 1.3 lc 16 notitle, \
  '' index 16 using 1:2:4 with points pt variable ps 1.3 lc 17 notitle, \
  '' index 17 using 1:2:4 with points pt variable ps 1.3 lc 18 notitle, \
  '' index 18 using 1:2:4 with points pt variable ps 1.3 lc 19 notitle, \
  '' index 19 using 1:2:4 with points pt variable ps 1.3 lc 20 notitle, \
  '' index 20 using 1:2:4 with points pt variable ps 1.3 lc 21 notitle, \
  '' index 21 using 1:2:4 with points pt variable ps 1.3 lc 22 notitle, \
  '' index 22 using 1:2:4 with points pt variable ps 1.3 lc 23 notitle, \
  '' index 23 using 1:2:4 with points pt variable ps 1.3 lc 24 notitle, \
  '' index 24 using 1:2:4 with points pt variable ps 1.3 lc 25 notitle, \
  '' index 25 using 1:2:4 with points pt variable ps 1.3 lc 26 notitle, \
  '' index 26 using 1:2:4 with points pt variable ps 1.3 lc 27 notitle, \
  '' index 27 using 1:2:4 with points pt variable ps 1.3 lc 28 notitle, \
  '' index 28 using 1:2:4 with points pt variable ps 1.3 lc 29 notitle, \
  '' index 29 using 1:2:4 with points pt variable ps 1.3 lc 30 notitle, \
  '' index 30 using 1:2:4 with points pt variable ps 1.3 lc 31 notitle, \
  '' index 31 using 1:2:4 with points pt variable ps 1.3 lc 32 notitle, \
  '' index 32 using 1:2:4 with points pt variable ps 1.3 lc 33 notitle, \
  '' index 33 using 1:2:4 with points pt variable ps 1.3 lc 34 notitle, \
  '' index 34 using 1:2:4 with points pt variable ps 1.3 lc 35 notitle, \
  '' index 35 using 1:2:4 with points pt variable ps 1.3 lc 36 notitle, \
  '' index 36 using 1:2:4 with points pt variable ps 1.3 lc 37 notitle, \
  keyentry with points pt 7 ps 1.3 lc 1 title 'in-order', \
  keyentry with points pt 7 ps 1.3 lc 2 title 'affine', \
  keyentry with points pt 7 ps 1.3 lc 3 title 'best', \
  keyentry with points pt 7 ps 1.3 lc 4 title 'best-energy', \
  keyentry with points pt 7 ps 1.3 lc 5 title 'best-time-energy', \
  keyentry with points pt 7 ps 1.3 lc 6 title 'bft', \
  keyentry with points pt 7 ps 1.3 lc 7 title 'bisection', \
  keyentry with points pt 7 ps 1.3 lc 8 title 'bokhari', \
  keyentry with points pt 7 ps 1.3 lc 9 title 'bokhari-energy', \
  keyentry with points pt 7 ps 1.3 lc 10 title 'coce', \
  keyentry with points pt 7 ps 1.3 lc 11 title 'coce-mht', \
  keyentry with points pt 7 ps 1.3 lc 12 title 'contiguous', \
  keyentry with points pt 7 ps 1.3 lc 13 title 'exco', \
  keyentry with points pt 7 ps 1.3 lc 14 title 'genetic', \
  keyentry with points pt 7 ps 1.3 lc 15 title 'gray', \
  keyentry with points pt 7 ps 1.3 lc 16 title 'greedy', \
  keyentry with points pt 7 ps 1.3 lc 17 title 'group-striped', \
  keyentry with points pt 7 ps 1.3 lc 18 title 'hilbert', \
  keyentry with points pt 7 ps 1.3 lc 19 title 'mht', \
  keyentry with points pt 7 ps 1.3 lc 20 title 'minmd', \
  keyentry with points pt 7 ps 1.3 lc 21 title 'mxov-al', \
  keyentry with points pt 7 ps 1.3 lc 22 title 'mxovlp', \
  keyentry with points pt 7 ps 1.3 lc 23 title 'ohtma', \
  keyentry with points pt 7 ps 1.3 lc 24 title 'peano', \
  keyentry with points pt 7 ps 1.3 lc 25 title 'random', \
  keyentry with points pt 7 ps 1.3 lc 26 title 'random-node', \
  keyentry with points pt 7 ps 1.3 lc 27 title 'random-router', \
  keyentry with points pt 7 ps 1.3 lc 28 title 'rcm', \
  keyentry with points pt 7 ps 1.3 lc 29 title 'replay-search', \
  keyentry with points pt 7 ps 1.3 lc 30 title 'replay-search-energy', \
  keyentry with points pt 7 ps 1.3 lc 31 title 'round-robin', \
  keyentry with points pt 7 ps 1.3 lc 32 title 'sampling', \
  keyentry with points pt 7 ps 1.3 lc 33 title 'scan', \
  keyentry with points pt 7 ps 1.3 lc 34 title 'scotch', \
  keyentry with points pt 7 ps 1.3 lc 35 title 'step', \
  keyentry with points pt 7 ps 1.3 lc 36 title 'sweep', \
  keyentry with points pt 7 ps 1.3 lc 37 title 'treematch', \
  keyentry with points pt 7 ps 1.3 lc rgb 'black' title 'npb:bt:C:64:iterations=2', \
  keyentry with points pt 5 ps 1.3 lc rgb 'black' title 'npb:cg:C:64:iterations=2', \
  keyentry with points pt 9 ps 1.3 lc rgb 'black' title 'npb:ft:C:64:iterations=1', \
  keyentry with points pt 11 ps 1.3 lc rgb 'black' title 'npb:is:C:64:iterations=1', \
  keyentry with points pt 13 ps 1.3 lc rgb 'black' title 'npb:lu:C:64:iterations=1', \
  keyentry with points pt 15 ps 1.3 lc rgb 'black' title 'npb:mg:C:64:iterations=1', \
  keyentry with points pt 4 ps 1.3 lc rgb 'black' title 'npb:sp:C:64:iterations=2'
unset output
reset
set terminal pngcairo size 1100,1128
set output 'agreement-hop_bytes-haec-sleep-flow_eager_65536_b_compute_x0.png'
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
set title "hop-bytes against simulated makespan_s: haec-sleep, flow (eager 65536 B, compute x0)"
set label 1 'mean rho +0.37 over 5 workloads, 2 mostly tied' at graph 0.02, graph 0.95 left front
plot 'agreement-hop_bytes-haec-sleep-flow_eager_65536_b_compute_x0.dat' index 0 using 1:2:4 with points pt variable ps 1.3 lc 1 notitle, \
  '' index 1 using 1:2:4 with points pt variable ps 1.3 lc 2 notitle, \
  '' index 2 using 1:2:4 with points pt variable ps 1.3 lc 3 notitle, \
  '' index 3 using 1:2:4 with points pt variable ps 1.3 lc 4 notitle, \
  '' index 4 using 1:2:4 with points pt variable ps 1.3 lc 5 notitle, \
  '' index 5 using 1:2:4 with points pt variable ps 1.3 lc 6 notitle, \
  '' index 6 using 1:2:4 with points pt variable ps 1.3 lc 7 notitle, \
  '' index 7 using 1:2:4 with points pt variable ps 1.3 lc 8 notitle, \
  '' index 8 using 1:2:4 with points pt variable ps 1.3 lc 9 notitle, \
  '' index 9 using 1:2:4 with points pt variable ps 1.3 lc 10 notitle, \
  '' index 10 using 1:2:4 with points pt variable ps 1.3 lc 11 notitle, \
  '' index 11 using 1:2:4 with points pt variable ps 1.3 lc 12 notitle, \
  '' index 12 using 1:2:4 with points pt variable ps 1.3 lc 13 notitle, \
  '' index 13 using 1:2:4 with points pt variable ps 1.3 lc 14 notitle, \
  '' index 14 using 1:2:4 with points pt variable ps 1.3 lc 15 notitle, \
  '' index 15 using 1:2:4 with points pt variable ps 1.3 lc 16 notitle, \
  '' index 16 using 1:2:4 with points pt variable ps 1.3 lc 17 notitle, \
  '' index 17 using 1:2:4 with points pt variable ps 1.3 lc 18 notitle, \
  '' index 18 using 1:2:4 with points pt variable ps 1.3 lc 19 notitle, \
  '' index 19 using 1:2:4 with points pt variable ps 1.3 lc 20 notitle, \
  '' index 20 using 1:2:4 with points pt variable ps 1.3 lc 21 notitle, \
  '' index 21 using 1:2:4 with points pt variable ps 1.3 lc 22 notitle, \
  '' index 22 using 1:2:4 with points pt variable ps 1.3 lc 23 notitle, \
  '' index 23 using 1:2:4 with points pt variable ps 1.3 lc 24 notitle, \
  '' index 24 using 1:2:4 with points pt variable ps 1.3 lc 25 notitle, \
  '' index 25 using 1:2:4 with points pt variable ps 1.3 lc 26 notitle, \
  '' index 26 using 1:2:4 with points pt variable ps 1.3 lc 27 notitle, \
  '' index 27 using 1:2:4 with points pt variable ps 1.3 lc 28 notitle, \
  '' index 28 using 1:2:4 with points pt variable ps 1.3 lc 29 notitle, \
  '' index 29 using 1:2:4 with points pt variable ps 1.3 lc 30 notitle, \
  '' index 30 using 1:2:4 with points pt variable ps 1.3 lc 31 notitle, \
  '' index 31 using 1:2:4 with points pt variable ps 1.3 lc 32 notitle, \
  '' index 32 using 1:2:4 with points pt variable ps 1.3 lc 33 notitle, \
  '' index 33 using 1:2:4 with points pt variable ps 1.3 lc 34 notitle, \
  '' index 34 using 1:2:4 with points pt variable ps 1.3 lc 35 notitle, \
  '' index 35 using 1:2:4 with points pt variable ps 1.3 lc 36 notitle, \
  '' index 36 using 1:2:4 with points pt variable ps 1.3 lc 37 notitle, \
  keyentry with points pt 7 ps 1.3 lc 1 title 'in-order', \
  keyentry with points pt 7 ps 1.3 lc 2 title 'affine', \
  keyentry with points pt 7 ps 1.3 lc 3 title 'best', \
  keyentry with points pt 7 ps 1.3 lc 4 title 'best-energy', \
  keyentry with points pt 7 ps 1.3 lc 5 title 'best-time-energy', \
  keyentry with points pt 7 ps 1.3 lc 6 title 'bft', \
  keyentry with points pt 7 ps 1.3 lc 7 title 'bisection', \
  keyentry with points pt 7 ps 1.3 lc 8 title 'bokhari', \
  keyentry with points pt 7 ps 1.3 lc 9 title 'bokhari-energy', \
  keyentry with points pt 7 ps 1.3 lc 10 title 'coce', \
  keyentry with points pt 7 ps 1.3 lc 11 title 'coce-mht', \
  keyentry with points pt 7 ps 1.3 lc 12 title 'contiguous', \
  keyentry with points pt 7 ps 1.3 lc 13 title 'exco', \
  keyentry with points pt 7 ps 1.3 lc 14 title 'genetic', \
  keyentry with points pt 7 ps 1.3 lc 15 title 'gray', \
  keyentry with points pt 7 ps 1.3 lc 16 title 'greedy', \
  keyentry with points pt 7 ps 1.3 lc 17 title 'group-striped', \
  keyentry with points pt 7 ps 1.3 lc 18 title 'hilbert', \
  keyentry with points pt 7 ps 1.3 lc 19 title 'mht', \
  keyentry with points pt 7 ps 1.3 lc 20 title 'minmd', \
  keyentry with points pt 7 ps 1.3 lc 21 title 'mxov-al', \
  keyentry with points pt 7 ps 1.3 lc 22 title 'mxovlp', \
  keyentry with points pt 7 ps 1.3 lc 23 title 'ohtma', \
  keyentry with points pt 7 ps 1.3 lc 24 title 'peano', \
  keyentry with points pt 7 ps 1.3 lc 25 title 'random', \
  keyentry with points pt 7 ps 1.3 lc 26 title 'random-node', \
  keyentry with points pt 7 ps 1.3 lc 27 title 'random-router', \
  keyentry with points pt 7 ps 1.3 lc 28 title 'rcm', \
  keyentry with points pt 7 ps 1.3 lc 29 title 'replay-search', \
  keyentry with points pt 7 ps 1.3 lc 30 title 'replay-search-energy', \
  keyentry with points pt 7 ps 1.3 lc 31 title 'round-robin', \
  keyentry with points pt 7 ps 1.3 lc 32 title 'sampling', \
  keyentry with points pt 7 ps 1.3 lc 33 title 'scan', \
  keyentry with points pt 7 ps 1.3 lc 34 title 'scotch', \
  keyentry with points pt 7 ps 1.3 lc 35 title 'step', \
  keyentry with points pt 7 ps 1.3 lc 36 title 'sweep', \
  keyentry with points pt 7 ps 1.3 lc 37 title 'treematch', \
  keyentry with points pt 7 ps 1.3 lc rgb 'black' title 'npb:bt:C:64:iterations=2', \
  keyentry with points pt 5 ps 1.3 lc rgb 'black' title 'npb:cg:C:64:iterations=2', \
  keyentry with points pt 9 ps 1.3 lc rgb 'black' title 'npb:ft:C:64:iterations=1', \
  keyentry with points pt 11 ps 1.3 lc rgb 'black' title 'npb:is:C:64:iterations=1', \
  keyentry with points pt 13 ps 1.3 lc rgb 'black' title 'npb:lu:C:64:iterations=1', \
  keyentry with points pt 15 ps 1.3 lc rgb 'black' title 'npb:mg:C:64:iterations=1', \
  keyentry with points pt 4 ps 1.3 lc rgb 'black' title 'npb:sp:C:64:iterations=2'
unset output
