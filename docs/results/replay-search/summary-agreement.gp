# mapsim report: Do the static metrics order the mappers as the simulation does? Mean rho
# Redraws summary-agreement.svg and summary-agreement.png: gnuplot summary-agreement.gp (in this directory).
reset
set terminal svg size 830,720 dynamic enhanced font 'Helvetica,12'
set output 'summary-agreement.svg'
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
set bmargin 16
set lmargin 24
set yrange [-1:1]
set ylabel 'mean Spearman rho with simulated time'
set title "Do the static metrics order the mappers as the\nsimulation does? Mean rho"
plot 'summary-agreement.dat' using 2:xtic(1) title 'hop-bytes', \
  '' using 3 title 'link-bytes-max', \
  '' using 4 title 'dilation-max', \
  '' using 5 title 'busiest-link-s', \
  '' using 6 title 'link-load-squares', \
  '' using 7 title 'latency-s'
unset output
reset
set terminal pngcairo size 830,720
set output 'summary-agreement.png'
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
set bmargin 16
set lmargin 24
set yrange [-1:1]
set ylabel 'mean Spearman rho with simulated time'
set title "Do the static metrics order the mappers as the\nsimulation does? Mean rho"
plot 'summary-agreement.dat' using 2:xtic(1) title 'hop-bytes', \
  '' using 3 title 'link-bytes-max', \
  '' using 4 title 'dilation-max', \
  '' using 5 title 'busiest-link-s', \
  '' using 6 title 'link-load-squares', \
  '' using 7 title 'latency-s'
unset output
