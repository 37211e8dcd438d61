set terminal pngcairo size 1000,650 noenhanced font 'Sans,11'
set linetype 1 lc rgb '#0072B2' lw 2 pt 5 ps 1.1
set linetype 2 lc rgb '#D55E00' lw 2 pt 7 ps 1.1
set linetype 3 lc rgb '#009E73' lw 2 pt 9 ps 1.1
set linetype 4 lc rgb '#CC79A7' lw 2 pt 11 ps 1.1
set linetype 5 lc rgb '#E69F00' lw 2 pt 13 ps 1.1
set linetype 6 lc rgb '#56B4E9' lw 2 pt 15 ps 1.1
set linetype 7 lc rgb '#000000' lw 2 pt 5 ps 1.1
set linetype 8 lc rgb '#8C564B' lw 2 pt 7 ps 1.1
reset
set output 'OUT/sample_lat-latency.png'
set title 'send_lat: Latency against message size -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
set logscale x 2
set xrange [1.6:163840]
set xtics ("2" 2, "8" 8, "32" 32, "128" 128, "512" 512, "2K" 2048, "8K" 8192, "32K" 32768, "128K" 131072)
unset mxtics
set xlabel 'message size (bytes, log2 scale)'
set logscale y 10
set format y '%g'
set ylabel 'latency (us, log scale)'
set ytics add ("0.2" 0.2, "0.5" 0.5, "2" 2, "5" 5, "20" 20, "50" 50, "200" 200, "500" 500)
set key top left
$D1 << EOD
2 1.05
8 1.051
32 1.053
128 1.06
512 1.092
2048 1.217
8192 1.718
32768 3.724
131072 11.745
EOD
$D2 << EOD
2 1.5
8 1.501
32 1.503
128 1.511
512 1.544
2048 1.675
8192 2.201
32768 4.305
131072 12.72
EOD
$D3 << EOD
2 2.95
8 2.951
32 2.953
128 2.961
512 2.996
2048 3.134
8192 3.684
32768 5.886
131072 14.694
EOD
$D4 << EOD
2 9.25
8 9.251
32 9.253
128 9.261
512 9.296
2048 9.434
8192 9.984
32768 12.186
131072 20.994
EOD
plot $D1 using 1:2 with linespoints lt 1 title 'lat_p50_us', \
     $D2 using 1:2 with linespoints lt 2 title 'lat_p99_us', \
     $D3 using 1:2 with linespoints lt 3 title 'lat_p999_us', \
     $D4 using 1:2 with linespoints lt 4 title 'lat_max_us'
reset
set output 'OUT/sample_lat-cpu.png'
set title 'send_lat: CPU per message against message size -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
set logscale x 2
set xrange [1.6:163840]
set xtics ("2" 2, "8" 8, "32" 32, "128" 128, "512" 512, "2K" 2048, "8K" 8192, "32K" 32768, "128K" 131072)
unset mxtics
set xlabel 'message size (bytes, log2 scale)'
set logscale y 10
set format y '%g'
set ylabel 'cpu (ns/msg, log scale)'
set ytics add ("20" 20, "50" 50, "200" 200, "500" 500, "2000" 2000, "5000" 5000, "20000" 20000, "50000" 50000, "200000" 200000, "500000" 500000)
set key top left
$D5 << EOD
2 1090.2
8 1090.7
32 1092.6
128 1100.4
512 1131.8
2048 1257.1
8192 1758.5
32768 3763.9
131072 11785.5
EOD
plot $D5 using 1:2 with linespoints lt 1 pt 5 dt 1 title 'batch 1 signal 1'
