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
set output 'OUT/sweep_qps-bandwidth.png'
set title 'write_bw: Bandwidth against message size -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
set logscale x 2
set xrange [51.2:1310720]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576)
unset mxtics
set xlabel 'message size (bytes, log2 scale)'
set yrange [0:*]
set ylabel 'bandwidth (Gb/s)'
set key outside right top font ',9'
$D1 << EOD
64 16.5297
4096 32.7213
1048576 27.0262
EOD
$D2 << EOD
64 3.3709
4096 2.356
1048576 3.9578
EOD
$D3 << EOD
64 21.5137
4096 6.6282
1048576 31.5579
EOD
$D4 << EOD
64 29.0666
4096 48.8246
1048576 42.9942
EOD
$D5 << EOD
64 7.6406
4096 15.7699
1048576 9.446
EOD
$D6 << EOD
64 32.1262
4096 27.6134
1048576 3.4503
EOD
$D7 << EOD
64 34.1798
4096 16.0503
1048576 22.9326
EOD
$D8 << EOD
64 39.8218
4096 12.5828
1048576 26.4972
EOD
$D9 << EOD
64 36.6075
4096 49.0187
1048576 21.1971
EOD
$D10 << EOD
64 8.0232
4096 2.4408
1048576 38.3463
EOD
$D11 << EOD
64 43.8362
4096 34.9171
1048576 29.2048
EOD
$D12 << EOD
64 42.0784
4096 23.9679
1048576 3.5031
EOD
$D13 << EOD
64 32.5329
4096 41.1853
1048576 19.5967
EOD
$D14 << EOD
64 1.6169
4096 8.8184
1048576 3.4182
EOD
$D15 << EOD
64 6.9023
4096 19.852
1048576 4.4888
EOD
$D16 << EOD
64 27.6973
4096 41.0544
1048576 14.2818
EOD
plot $D1 using 1:2 with linespoints lt 1 pt 5 dt 1 title 'batch 1 signal 1 qps 1 tx_depth 64', \
     $D2 using 1:2 with linespoints lt 2 pt 7 dt 1 title 'batch 1 signal 16 qps 1 tx_depth 64', \
     $D3 using 1:2 with linespoints lt 3 pt 9 dt 1 title 'batch 8 signal 1 qps 1 tx_depth 64', \
     $D4 using 1:2 with linespoints lt 4 pt 11 dt 1 title 'batch 8 signal 16 qps 1 tx_depth 64', \
     $D5 using 1:2 with linespoints lt 5 pt 13 dt 1 title 'batch 1 signal 1 qps 1 tx_depth 256', \
     $D6 using 1:2 with linespoints lt 6 pt 15 dt 1 title 'batch 1 signal 16 qps 1 tx_depth 256', \
     $D7 using 1:2 with linespoints lt 7 pt 5 dt 1 title 'batch 8 signal 1 qps 1 tx_depth 256', \
     $D8 using 1:2 with linespoints lt 8 pt 7 dt 1 title 'batch 8 signal 16 qps 1 tx_depth 256', \
     $D9 using 1:2 with linespoints lt 1 pt 9 dt 2 title 'batch 1 signal 1 qps 4 tx_depth 64', \
     $D10 using 1:2 with linespoints lt 2 pt 11 dt 2 title 'batch 1 signal 16 qps 4 tx_depth 64', \
     $D11 using 1:2 with linespoints lt 3 pt 13 dt 2 title 'batch 8 signal 1 qps 4 tx_depth 64', \
     $D12 using 1:2 with linespoints lt 4 pt 15 dt 2 title 'batch 8 signal 16 qps 4 tx_depth 64', \
     $D13 using 1:2 with linespoints lt 5 pt 5 dt 2 title 'batch 1 signal 1 qps 4 tx_depth 256', \
     $D14 using 1:2 with linespoints lt 6 pt 7 dt 2 title 'batch 1 signal 16 qps 4 tx_depth 256', \
     $D15 using 1:2 with linespoints lt 7 pt 9 dt 2 title 'batch 8 signal 1 qps 4 tx_depth 256', \
     $D16 using 1:2 with linespoints lt 8 pt 11 dt 2 title 'batch 8 signal 16 qps 4 tx_depth 256'
reset
set output 'OUT/sweep_qps-msgrate.png'
set title 'write_bw: Message rate against message size -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
set logscale x 2
set xrange [51.2:1310720]
set xtics ("64" 64, "256" 256, "1K" 1024, "4K" 4096, "16K" 16384, "64K" 65536, "256K" 262144, "1M" 1048576)
unset mxtics
set xlabel 'message size (bytes, log2 scale)'
set logscale y 10
set format y '%g'
set ylabel 'msgrate (Mpps, log scale)'
set ytics add ("0.2" 0.2, "0.5" 0.5, "2" 2, "5" 5, "20" 20, "50" 50, "200" 200, "500" 500)
set key outside right top font ',9'
$D17 << EOD
64 7.967
4096 4.0856
1048576 18.6016
EOD
$D18 << EOD
64 25.6181
4096 21.9655
1048576 4.9903
EOD
$D19 << EOD
64 41.4292
4096 11.5503
1048576 47.4116
EOD
$D20 << EOD
64 20.1357
4096 2.8058
1048576 14.8357
EOD
$D21 << EOD
64 6.3307
4096 40.8983
1048576 29.2892
EOD
$D22 << EOD
64 18.9337
4096 3.6081
1048576 10.695
EOD
$D23 << EOD
64 21.6658
4096 29.4853
1048576 15.3385
EOD
$D24 << EOD
64 35.1002
4096 28.934
1048576 43.8193
EOD
$D25 << EOD
64 14.7529
4096 6.3443
1048576 37.9785
EOD
$D26 << EOD
64 24.7037
4096 33.5767
1048576 28.8648
EOD
$D27 << EOD
64 16.0305
4096 29.9213
1048576 23.0822
EOD
$D28 << EOD
64 47.2617
4096 33.3755
1048576 35.2239
EOD
$D29 << EOD
64 49.6582
4096 14.5875
1048576 33.5983
EOD
$D30 << EOD
64 23.3539
4096 6.2962
1048576 38.5275
EOD
$D31 << EOD
64 12.7569
4096 43.6354
1048576 22.7348
EOD
$D32 << EOD
64 44.2275
4096 43.2672
1048576 21.0572
EOD
plot $D17 using 1:2 with linespoints lt 1 pt 5 dt 1 title 'batch 1 signal 1 qps 1 tx_depth 64', \
     $D18 using 1:2 with linespoints lt 2 pt 7 dt 1 title 'batch 1 signal 16 qps 1 tx_depth 64', \
     $D19 using 1:2 with linespoints lt 3 pt 9 dt 1 title 'batch 8 signal 1 qps 1 tx_depth 64', \
     $D20 using 1:2 with linespoints lt 4 pt 11 dt 1 title 'batch 8 signal 16 qps 1 tx_depth 64', \
     $D21 using 1:2 with linespoints lt 5 pt 13 dt 1 title 'batch 1 signal 1 qps 1 tx_depth 256', \
     $D22 using 1:2 with linespoints lt 6 pt 15 dt 1 title 'batch 1 signal 16 qps 1 tx_depth 256', \
     $D23 using 1:2 with linespoints lt 7 pt 5 dt 1 title 'batch 8 signal 1 qps 1 tx_depth 256', \
     $D24 using 1:2 with linespoints lt 8 pt 7 dt 1 title 'batch 8 signal 16 qps 1 tx_depth 256', \
     $D25 using 1:2 with linespoints lt 1 pt 9 dt 2 title 'batch 1 signal 1 qps 4 tx_depth 64', \
     $D26 using 1:2 with linespoints lt 2 pt 11 dt 2 title 'batch 1 signal 16 qps 4 tx_depth 64', \
     $D27 using 1:2 with linespoints lt 3 pt 13 dt 2 title 'batch 8 signal 1 qps 4 tx_depth 64', \
     $D28 using 1:2 with linespoints lt 4 pt 15 dt 2 title 'batch 8 signal 16 qps 4 tx_depth 64', \
     $D29 using 1:2 with linespoints lt 5 pt 5 dt 2 title 'batch 1 signal 1 qps 4 tx_depth 256', \
     $D30 using 1:2 with linespoints lt 6 pt 7 dt 2 title 'batch 1 signal 16 qps 4 tx_depth 256', \
     $D31 using 1:2 with linespoints lt 7 pt 9 dt 2 title 'batch 8 signal 1 qps 4 tx_depth 256', \
     $D32 using 1:2 with linespoints lt 8 pt 11 dt 2 title 'batch 8 signal 16 qps 4 tx_depth 256'
reset
set output 'OUT/sweep_qps-heatmap-64-qps1-txd64.png'
set title 'write_bw: msg_rate_mpps at 64 B, qps 1, tx_depth 64 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:41.4292]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D33 << EOD
0 0 7.967
0 1 25.6181
1 0 41.4292
1 1 20.1357
EOD
$D34 << EOD
-9 -9
EOD
$D35 << EOD
0 0 "7.97" 0
0 1 "25.6" 16777215
1 0 "41.4" 16777215
1 1 "20.1" 0
EOD
plot $D33 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D34 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D35 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-64-qps1-txd256.png'
set title 'write_bw: msg_rate_mpps at 64 B, qps 1, tx_depth 256 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:35.1002]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D36 << EOD
0 0 6.3307
0 1 18.9337
1 0 21.6658
1 1 35.1002
EOD
$D37 << EOD
-9 -9
EOD
$D38 << EOD
0 0 "6.33" 0
0 1 "18.9" 0
1 0 "21.7" 16777215
1 1 "35.1" 16777215
EOD
plot $D36 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D37 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D38 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-64-qps4-txd64.png'
set title 'write_bw: msg_rate_mpps at 64 B, qps 4, tx_depth 64 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:47.2617]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D39 << EOD
0 0 14.7529
0 1 24.7037
1 0 16.0305
1 1 47.2617
EOD
$D40 << EOD
-9 -9
EOD
$D41 << EOD
0 0 "14.8" 0
0 1 "24.7" 0
1 0 "16" 0
1 1 "47.3" 16777215
EOD
plot $D39 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D40 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D41 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-64-qps4-txd256.png'
set title 'write_bw: msg_rate_mpps at 64 B, qps 4, tx_depth 256 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:49.6582]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D42 << EOD
0 0 49.6582
0 1 23.3539
1 0 12.7569
1 1 44.2275
EOD
$D43 << EOD
-9 -9
EOD
$D44 << EOD
0 0 "49.7" 16777215
0 1 "23.4" 0
1 0 "12.8" 0
1 1 "44.2" 16777215
EOD
plot $D42 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D43 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D44 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-4096-qps1-txd64.png'
set title 'write_bw: msg_rate_mpps at 4 KiB, qps 1, tx_depth 64 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:21.9655]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D45 << EOD
0 0 4.0856
0 1 21.9655
1 0 11.5503
1 1 2.8058
EOD
$D46 << EOD
-9 -9
EOD
$D47 << EOD
0 0 "4.09" 0
0 1 "22" 16777215
1 0 "11.6" 0
1 1 "2.81" 0
EOD
plot $D45 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D46 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D47 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-4096-qps1-txd256.png'
set title 'write_bw: msg_rate_mpps at 4 KiB, qps 1, tx_depth 256 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:40.8983]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D48 << EOD
0 0 40.8983
0 1 3.6081
1 0 29.4853
1 1 28.934
EOD
$D49 << EOD
-9 -9
EOD
$D50 << EOD
0 0 "40.9" 16777215
0 1 "3.61" 0
1 0 "29.5" 16777215
1 1 "28.9" 16777215
EOD
plot $D48 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D49 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D50 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-4096-qps4-txd64.png'
set title 'write_bw: msg_rate_mpps at 4 KiB, qps 4, tx_depth 64 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:33.5767]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D51 << EOD
0 0 6.3443
0 1 33.5767
1 0 29.9213
1 1 33.3755
EOD
$D52 << EOD
-9 -9
EOD
$D53 << EOD
0 0 "6.34" 0
0 1 "33.6" 16777215
1 0 "29.9" 16777215
1 1 "33.4" 16777215
EOD
plot $D51 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D52 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D53 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-4096-qps4-txd256.png'
set title 'write_bw: msg_rate_mpps at 4 KiB, qps 4, tx_depth 256 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:43.6354]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D54 << EOD
0 0 14.5875
0 1 6.2962
1 0 43.6354
1 1 43.2672
EOD
$D55 << EOD
-9 -9
EOD
$D56 << EOD
0 0 "14.6" 0
0 1 "6.3" 0
1 0 "43.6" 16777215
1 1 "43.3" 16777215
EOD
plot $D54 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D55 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D56 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-1048576-qps1-txd64.png'
set title 'write_bw: msg_rate_mpps at 1 MiB, qps 1, tx_depth 64 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:47.4116]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D57 << EOD
0 0 18.6016
0 1 4.9903
1 0 47.4116
1 1 14.8357
EOD
$D58 << EOD
-9 -9
EOD
$D59 << EOD
0 0 "18.6" 0
0 1 "4.99" 0
1 0 "47.4" 16777215
1 1 "14.8" 0
EOD
plot $D57 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D58 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D59 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-1048576-qps1-txd256.png'
set title 'write_bw: msg_rate_mpps at 1 MiB, qps 1, tx_depth 256 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:43.8193]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D60 << EOD
0 0 29.2892
0 1 10.695
1 0 15.3385
1 1 43.8193
EOD
$D61 << EOD
-9 -9
EOD
$D62 << EOD
0 0 "29.3" 16777215
0 1 "10.7" 0
1 0 "15.3" 0
1 1 "43.8" 16777215
EOD
plot $D60 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D61 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D62 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-1048576-qps4-txd64.png'
set title 'write_bw: msg_rate_mpps at 1 MiB, qps 4, tx_depth 64 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:37.9785]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D63 << EOD
0 0 37.9785
0 1 28.8648
1 0 23.0822
1 1 35.2239
EOD
$D64 << EOD
-9 -9
EOD
$D65 << EOD
0 0 "38" 16777215
0 1 "28.9" 16777215
1 0 "23.1" 16777215
1 1 "35.2" 16777215
EOD
plot $D63 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D64 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D65 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sweep_qps-heatmap-1048576-qps4-txd256.png'
set title 'write_bw: msg_rate_mpps at 1 MiB, qps 4, tx_depth 256 -- device mlx5_0, host h1'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:1.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "8" 1) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:38.5275]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D66 << EOD
0 0 33.5983
0 1 38.5275
1 0 22.7348
1 1 21.0572
EOD
$D67 << EOD
-9 -9
EOD
$D68 << EOD
0 0 "33.6" 16777215
0 1 "38.5" 16777215
1 0 "22.7" 16777215
1 1 "21.1" 0
EOD
plot $D66 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D67 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D68 using 1:2:3:4 with labels tc rgb variable font ',12'
