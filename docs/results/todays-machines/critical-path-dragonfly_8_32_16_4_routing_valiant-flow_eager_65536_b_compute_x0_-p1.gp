# mapsim report: where the time goes: the critical path / in-order's makespan: dragonfly:8,32,16,4:routing=valiant, flow (eager 65536 B, compute x0) (page 1 of 2)
# Redraws critical-path-dragonfly_8_32_16_4_routing_valiant-flow_eager_65536_b_compute_x0_-p1.svg and critical-path-dragonfly_8_32_16_4_routing_valiant-flow_eager_65536_b_compute_x0_-p1.png: gnuplot critical-path-dragonfly_8_32_16_4_routing_valiant-flow_eager_65536_b_compute_x0_-p1.gp (in this directory).
reset
set terminal svg size 880,600 dynamic enhanced font 'Helvetica,12'
set output 'critical-path-dragonfly_8_32_16_4_routing_valiant-flow_eager_65536_b_compute_x0_-p1.svg'
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
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.8
set xtics rotate by 45 right scale 0 nomirror font ',9'
set grid ytics
set key outside right top vertical
set ylabel 'time / in-order''s makespan'
set title "where the time goes: the critical path / in-order's makespan:\ndragonfly:8,32,16,4:routing=valiant, flow (eager 65536 B, compute x0) (page 1 of 2)"
plot newhistogram 'npb:bt:D:1024:iterations=1' lt 1, \
  'critical-path-dragonfly_8_32_16_4_routing_valiant-flow_eager_65536_b_compute_x0_-p1.dat' index 0 using 2:xtic(1) lc rgb '#8c8c8c' title 'compute', \
  '' index 0 using 3 lc rgb '#9467bd' title 'overheads', \
  '' index 0 using 4 lc rgb '#1f77b4' title 'latency', \
  '' index 0 using 5 lc rgb '#2ca02c' title 'bandwidth', \
  '' index 0 using 6 lc rgb '#d62728' title 'contention', \
  '' index 0 using 7 lc rgb '#ff7f0e' title 'waiting', \
  newhistogram 'npb:cg:D:1024:iterations=1' lt 1, \
  '' index 1 using 2:xtic(1) lc rgb '#8c8c8c' notitle, \
  '' index 1 using 3 lc rgb '#9467bd' notitle, \
  '' index 1 using 4 lc rgb '#1f77b4' notitle, \
  '' index 1 using 5 lc rgb '#2ca02c' notitle, \
  '' index 1 using 6 lc rgb '#d62728' notitle, \
  '' index 1 using 7 lc rgb '#ff7f0e' notitle, \
  newhistogram 'npb:ft:D:1024:iterations=1' lt 1, \
  '' index 2 using 2:xtic(1) lc rgb '#8c8c8c' notitle, \
  '' index 2 using 3 lc rgb '#9467bd' notitle, \
  '' index 2 using 4 lc rgb '#1f77b4' notitle, \
  '' index 2 using 5 lc rgb '#2ca02c' notitle, \
  '' index 2 using 6 lc rgb '#d62728' notitle, \
  '' index 2 using 7 lc rgb '#ff7f0e' notitle, \
  newhistogram 'npb:lu:D:1024:iterations=1' lt 1, \
  '' index 3 using 2:xtic(1) lc rgb '#8c8c8c' notitle, \
  '' index 3 using 3 lc rgb '#9467bd' notitle, \
  '' index 3 using 4 lc rgb '#1f77b4' notitle, \
  '' index 3 using 5 lc rgb '#2ca02c' notitle, \
  '' index 3 using 6 lc rgb '#d62728' notitle, \
  '' index 3 using 7 lc rgb '#ff7f0e' notitle, \
  newhistogram 'npb:lu:D:4096:iterations=1' lt 1, \
  '' index 4 using 2:xtic(1) lc rgb '#8c8c8c' notitle, \
  '' index 4 using 3 lc rgb '#9467bd' notitle, \
  '' index 4 using 4 lc rgb '#1f77b4' notitle, \
  '' index 4 using 5 lc rgb '#2ca02c' notitle, \
  '' index 4 using 6 lc rgb '#d62728' notitle, \
  '' index 4 using 7 lc rgb '#ff7f0e' notitle
unset output
reset
set terminal pngcairo size 880,600
set output 'critical-path-dragonfly_8_32_16_4_routing_valiant-flow_eager_65536_b_compute_x0_-p1.png'
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
set style histogram rowstacked
set style fill solid 0.85 border -1
set boxwidth 0.8
set xtics rotate by 45 right scale 0 nomirror font ',9'
set grid ytics
set key outside right top vertical
set ylabel 'time / in-order''s makespan'
set title "where the time goes: the critical path / in-order's makespan:\ndragonfly:8,32,16,4:routing=valiant, flow (eager 65536 B, compute x0) (page 1 of 2)"
plot newhistogram 'npb:bt:D:1024:iterations=1' lt 1, \
  'critical-path-dragonfly_8_32_16_4_routing_valiant-flow_eager_65536_b_compute_x0_-p1.dat' index 0 using 2:xtic(1) lc rgb '#8c8c8c' title 'compute', \
  '' index 0 using 3 lc rgb '#9467bd' title 'overheads', \
  '' index 0 using 4 lc rgb '#1f77b4' title 'latency', \
  '' index 0 using 5 lc rgb '#2ca02c' title 'bandwidth', \
  '' index 0 using 6 lc rgb '#d62728' title 'contention', \
  '' index 0 using 7 lc rgb '#ff7f0e' title 'waiting', \
  newhistogram 'npb:cg:D:1024:iterations=1' lt 1, \
  '' index 1 using 2:xtic(1) lc rgb '#8c8c8c' notitle, \
  '' index 1 using 3 lc rgb '#9467bd' notitle, \
  '' index 1 using 4 lc rgb '#1f77b4' notitle, \
  '' index 1 using 5 lc rgb '#2ca02c' notitle, \
  '' index 1 using 6 lc rgb '#d62728' notitle, \
  '' index 1 using 7 lc rgb '#ff7f0e' notitle, \
  newhistogram 'npb:ft:D:1024:iterations=1' lt 1, \
  '' index 2 using 2:xtic(1) lc rgb '#8c8c8c' notitle, \
  '' index 2 using 3 lc rgb '#9467bd' notitle, \
  '' index 2 using 4 lc rgb '#1f77b4' notitle, \
  '' index 2 using 5 lc rgb '#2ca02c' notitle, \
  '' index 2 using 6 lc rgb '#d62728' notitle, \
  '' index 2 using 7 lc rgb '#ff7f0e' notitle, \
  newhistogram 'npb:lu:D:1024:iterations=1' lt 1, \
  '' index 3 using 2:xtic(1) lc rgb '#8c8c8c' notitle, \
  '' index 3 using 3 lc rgb '#9467bd' notitle, \
  '' index 3 using 4 lc rgb '#1f77b4' notitle, \
  '' index 3 using 5 lc rgb '#2ca02c' notitle, \
  '' index 3 using 6 lc rgb '#d62728' notitle, \
  '' index 3 using 7 lc rgb '#ff7f0e' notitle, \
  newhistogram 'npb:lu:D:4096:iterations=1' lt 1, \
  '' index 4 using 2:xtic(1) lc rgb '#8c8c8c' notitle, \
  '' index 4 using 3 lc rgb '#9467bd' notitle, \
  '' index 4 using 4 lc rgb '#1f77b4' notitle, \
  '' index 4 using 5 lc rgb '#2ca02c' notitle, \
  '' index 4 using 6 lc rgb '#d62728' notitle, \
  '' index 4 using 7 lc rgb '#ff7f0e' notitle
unset output
