# mapsim report: hop-bytes and simulated time / in-order: haec-sleep, flow (eager 65536 B, compute x0)
# Redraws bars-haec-sleep-flow_eager_65536_b_compute_x0.svg and bars-haec-sleep-flow_eager_65536_b_compute_x0.png: gnuplot bars-haec-sleep-flow_eager_65536_b_compute_x0.gp (in this directory).
reset
set terminal svg size 2400,600 dynamic enhanced font 'Helvetica,12'
set output 'bars-haec-sleep-flow_eager_65536_b_compute_x0.svg'
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
set lmargin 24
set yrange [0:*]
set ylabel 'ratio to in-order (lower is better)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb 'gray30'
set multiplot layout 1,2 title "hop-bytes and simulated time / in-order: haec-sleep, flow (eager 65536 B, compute x0)"
unset key
set title 'hop-bytes / in-order'
plot 'bars-haec-sleep-flow_eager_65536_b_compute_x0.dat' using 2:xtic(1) title 'in-order' lt 1, \
  '' using 3 title 'affine' lt 2, \
  '' using 4 title 'best' lt 3, \
  '' using 5 title 'best-energy' lt 4, \
  '' using 6 title 'best-time-energy' lt 5, \
  '' using 7 title 'bft' lt 6, \
  '' using 8 title 'bisection' lt 7, \
  '' using 9 title 'bokhari' lt 8, \
  '' using 10 title 'bokhari-energy' lt 9, \
  '' using 11 title 'coce' lt 10, \
  '' using 12 title 'coce-mht' lt 11, \
  '' using 13 title 'contiguous' lt 12, \
  '' using 14 title 'exco' lt 13, \
  '' using 15 title 'genetic' lt 14, \
  '' using 16 title 'gray' lt 15, \
  '' using 17 title 'greedy' lt 16, \
  '' using 18 title 'group-striped' lt 17, \
  '' using 19 title 'hilbert' lt 18, \
  '' using 20 title 'mht' lt 19, \
  '' using 21 title 'minmd' lt 20, \
  '' using 22 title 'mxov-al' lt 21, \
  '' using 23 title 'mxovlp' lt 22, \
  '' using 24 title 'ohtma' lt 23, \
  '' using 25 title 'peano' lt 24, \
  '' using 26 title 'random' lt 25, \
  '' using 27 title 'random-node' lt 26, \
  '' using 28 title 'random-router' lt 27, \
  '' using 29 title 'rcm' lt 28, \
  '' using 30 title 'replay-search' lt 29, \
  '' using 31 title 'replay-search-energy' lt 30, \
  '' using 32 title 'round-robin' lt 31, \
  '' using 33 title 'sampling' lt 32, \
  '' using 34 title 'scan' lt 33, \
  '' using 35 title 'scotch' lt 34, \
  '' using 36 title 'step' lt 35, \
  '' using 37 title 'sweep' lt 36, \
  '' using 38 title 'treematch' lt 37
set key outside right top vertical
set title 'simulated makespan_s / in-order'
plot 'bars-haec-sleep-flow_eager_65536_b_compute_x0.dat' using 39:xtic(1) title 'in-order' lt 1, \
  '' using 40 title 'affine' lt 2, \
  '' using 41 title 'best' lt 3, \
  '' using 42 title 'best-energy' lt 4, \
  '' using 43 title 'best-time-energy' lt 5, \
  '' using 44 title 'bft' lt 6, \
  '' using 45 title 'bisection' lt 7, \
  '' using 46 title 'bokhari' lt 8, \
  '' using 47 title 'bokhari-energy' lt 9, \
  '' using 48 title 'coce' lt 10, \
  '' using 49 title 'coce-mht' lt 11, \
  '' using 50 title 'contiguous' lt 12, \
  '' using 51 title 'exco' lt 13, \
  '' using 52 title 'genetic' lt 14, \
  '' using 53 title 'gray' lt 15, \
  '' using 54 title 'greedy' lt 16, \
  '' using 55 title 'group-striped' lt 17, \
  '' using 56 title 'hilbert' lt 18, \
  '' using 57 title 'mht' lt 19, \
  '' using 58 title 'minmd' lt 20, \
  '' using 59 title 'mxov-al' lt 21, \
  '' using 60 title 'mxovlp' lt 22, \
  '' using 61 title 'ohtma' lt 23, \
  '' using 62 title 'peano' lt 24, \
  '' using 63 title 'random' lt 25, \
  '' using 64 title 'random-node' lt 26, \
  '' using 65 title 'random-router' lt 27, \
  '' using 66 title 'rcm' lt 28, \
  '' using 67 title 'replay-search' lt 29, \
  '' using 68 title 'replay-search-energy' lt 30, \
  '' using 69 title 'round-robin' lt 31, \
  '' using 70 title 'sampling' lt 32, \
  '' using 71 title 'scan' lt 33, \
  '' using 72 title 'scotch' lt 34, \
  '' using 73 title 'step' lt 35, \
  '' using 74 title 'sweep' lt 36, \
  '' using 75 title 'treematch' lt 37
unset multiplot
unset output
reset
set terminal pngcairo size 2400,600
set output 'bars-haec-sleep-flow_eager_65536_b_compute_x0.png'
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
set lmargin 24
set yrange [0:*]
set ylabel 'ratio to in-order (lower is better)'
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dashtype 2 lc rgb 'gray30'
set multiplot layout 1,2 title "hop-bytes and simulated time / in-order: haec-sleep, flow (eager 65536 B, compute x0)"
unset key
set title 'hop-bytes / in-order'
plot 'bars-haec-sleep-flow_eager_65536_b_compute_x0.dat' using 2:xtic(1) title 'in-order' lt 1, \
  '' using 3 title 'affine' lt 2, \
  '' using 4 title 'best' lt 3, \
  '' using 5 title 'best-energy' lt 4, \
  '' using 6 title 'best-time-energy' lt 5, \
  '' using 7 title 'bft' lt 6, \
  '' using 8 title 'bisection' lt 7, \
  '' using 9 title 'bokhari' lt 8, \
  '' using 10 title 'bokhari-energy' lt 9, \
  '' using 11 title 'coce' lt 10, \
  '' using 12 title 'coce-mht' lt 11, \
  '' using 13 title 'contiguous' lt 12, \
  '' using 14 title 'exco' lt 13, \
  '' using 15 title 'genetic' lt 14, \
  '' using 16 title 'gray' lt 15, \
  '' using 17 title 'greedy' lt 16, \
  '' using 18 title 'group-striped' lt 17, \
  '' using 19 title 'hilbert' lt 18, \
  '' using 20 title 'mht' lt 19, \
  '' using 21 title 'minmd' lt 20, \
  '' using 22 title 'mxov-al' lt 21, \
  '' using 23 title 'mxovlp' lt 22, \
  '' using 24 title 'ohtma' lt 23, \
  '' using 25 title 'peano' lt 24, \
  '' using 26 title 'random' lt 25, \
  '' using 27 title 'random-node' lt 26, \
  '' using 28 title 'random-router' lt 27, \
  '' using 29 title 'rcm' lt 28, \
  '' using 30 title 'replay-search' lt 29, \
  '' using 31 title 'replay-search-energy' lt 30, \
  '' using 32 title 'round-robin' lt 31, \
  '' using 33 title 'sampling' lt 32, \
  '' using 34 title 'scan' lt 33, \
  '' using 35 title 'scotch' lt 34, \
  '' using 36 title 'step' lt 35, \
  '' using 37 title 'sweep' lt 36, \
  '' using 38 title 'treematch' lt 37
set key outside right top vertical
set title 'simulated makespan_s / in-order'
plot 'bars-haec-sleep-flow_eager_65536_b_compute_x0.dat' using 39:xtic(1) title 'in-order' lt 1, \
  '' using 40 title 'affine' lt 2, \
  '' using 41 title 'best' lt 3, \
  '' using 42 title 'best-energy' lt 4, \
  '' using 43 title 'best-time-energy' lt 5, \
  '' using 44 title 'bft' lt 6, \
  '' using 45 title 'bisection' lt 7, \
  '' using 46 title 'bokhari' lt 8, \
  '' using 47 title 'bokhari-energy' lt 9, \
  '' using 48 title 'coce' lt 10, \
  '' using 49 title 'coce-mht' lt 11, \
  '' using 50 title 'contiguous' lt 12, \
  '' using 51 title 'exco' lt 13, \
  '' using 52 title 'genetic' lt 14, \
  '' using 53 title 'gray' lt 15, \
  '' using 54 title 'greedy' lt 16, \
  '' using 55 title 'group-striped' lt 17, \
  '' using 56 title 'hilbert' lt 18, \
  '' using 57 title 'mht' lt 19, \
  '' using 58 title 'minmd' lt 20, \
  '' using 59 title 'mxov-al' lt 21, \
  '' using 60 title 'mxovlp' lt 22, \
  '' using 61 title 'ohtma' lt 23, \
  '' using 62 title 'peano' lt 24, \
  '' using 63 title 'random' lt 25, \
  '' using 64 title 'random-node' lt 26, \
  '' using 65 title 'random-router' lt 27, \
  '' using 66 title 'rcm' lt 28, \
  '' using 67 title 'replay-search' lt 29, \
  '' using 68 title 'replay-search-energy' lt 30, \
  '' using 69 title 'round-robin' lt 31, \
  '' using 70 title 'sampling' lt 32, \
  '' using 71 title 'scan' lt 33, \
  '' using 72 title 'scotch' lt 34, \
  '' using 73 title 'step' lt 35, \
  '' using 74 title 'sweep' lt 36, \
  '' using 75 title 'treematch' lt 37
unset multiplot
unset output
