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
set output 'OUT/sample_bw-bandwidth.png'
set title 'send_bw: Bandwidth against message size -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
set logscale x 2
set xrange [51.2:81920]
set xtics ("64" 64, "128" 128, "256" 256, "512" 512, "1K" 1024, "2K" 2048, "4K" 4096, "8K" 8192, "16K" 16384, "32K" 32768, "64K" 65536)
unset mxtics
set xlabel 'message size (bytes, log2 scale)'
set yrange [0:*]
set ylabel 'bandwidth (Gb/s)'
set key bottom right
$D1 << EOD
64 1.327
512 10.618
4096 84.941
65536 96.709
EOD
$D2 << EOD
64 2.389
512 19.112
4096 96.709
65536 96.709
EOD
$D3 << EOD
64 3.743
512 29.941
4096 96.418
65536 96.418
EOD
$D4 << EOD
64 6.737
512 53.894
4096 96.418
65536 96.418
EOD
$D5 << EOD
64 10.554
512 84.43
4096 96.127
65536 96.127
EOD
$D6 << EOD
64 15.222
512 96.127
4096 96.127
65536 96.127
EOD
plot $D1 using 1:2 with linespoints lt 1 pt 5 dt 1 title 'batch 1 signal 1', \
     $D2 using 1:2 with linespoints lt 2 pt 7 dt 1 title 'batch 1 signal 16', \
     $D3 using 1:2 with linespoints lt 3 pt 9 dt 1 title 'batch 4 signal 1', \
     $D4 using 1:2 with linespoints lt 4 pt 11 dt 1 title 'batch 4 signal 16', \
     $D5 using 1:2 with linespoints lt 5 pt 13 dt 1 title 'batch 16 signal 1', \
     $D6 using 1:2 with linespoints lt 6 pt 15 dt 1 title 'batch 16 signal 16'
reset
set output 'OUT/sample_bw-msgrate.png'
set title 'send_bw: Message rate against message size -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
set logscale x 2
set xrange [51.2:81920]
set xtics ("64" 64, "128" 128, "256" 256, "512" 512, "1K" 1024, "2K" 2048, "4K" 4096, "8K" 8192, "16K" 16384, "32K" 32768, "64K" 65536)
unset mxtics
set xlabel 'message size (bytes, log2 scale)'
set logscale y 10
set format y '%g'
set ylabel 'msgrate (Mpps, log scale)'
set ytics add ("0.02" 0.02, "0.05" 0.05, "0.2" 0.2, "0.5" 0.5, "2" 2, "5" 5, "20" 20, "50" 50, "200" 200, "500" 500)
set key bottom left
$D7 << EOD
64 2.5922
512 2.5922
4096 2.5922
65536 0.1845
EOD
$D8 << EOD
64 4.666
512 4.666
4096 2.9513
65536 0.1845
EOD
$D9 << EOD
64 7.3098
512 7.3098
4096 2.9424
65536 0.1839
EOD
$D10 << EOD
64 13.1576
512 13.1576
4096 2.9424
65536 0.1839
EOD
$D11 << EOD
64 20.6128
512 20.6128
4096 2.9336
65536 0.1833
EOD
$D12 << EOD
64 29.73
512 23.4685
4096 2.9336
65536 0.1833
EOD
plot $D7 using 1:2 with linespoints lt 1 pt 5 dt 1 title 'batch 1 signal 1', \
     $D8 using 1:2 with linespoints lt 2 pt 7 dt 1 title 'batch 1 signal 16', \
     $D9 using 1:2 with linespoints lt 3 pt 9 dt 1 title 'batch 4 signal 1', \
     $D10 using 1:2 with linespoints lt 4 pt 11 dt 1 title 'batch 4 signal 16', \
     $D11 using 1:2 with linespoints lt 5 pt 13 dt 1 title 'batch 16 signal 1', \
     $D12 using 1:2 with linespoints lt 6 pt 15 dt 1 title 'batch 16 signal 16'
reset
set output 'OUT/sample_bw-heatmap-64.png'
set title 'send_bw: msg_rate_mpps at 64 B -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:2.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "4" 1, "16" 2) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:29.73]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D13 << EOD
0 0 2.5922
0 1 4.666
1 0 7.3098
1 1 13.1576
2 0 20.6128
2 1 29.73
EOD
$D14 << EOD
-9 -9
EOD
$D15 << EOD
0 0 "2.59" 0
0 1 "4.67" 0
1 0 "7.31" 0
1 1 "13.2" 0
2 0 "20.6" 16777215
2 1 "29.7" 16777215
EOD
plot $D13 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D14 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D15 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sample_bw-heatmap-512.png'
set title 'send_bw: msg_rate_mpps at 512 B -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:2.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "4" 1, "16" 2) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:23.4685]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D16 << EOD
0 0 2.5922
0 1 4.666
1 0 7.3098
1 1 13.1576
2 0 20.6128
2 1 23.4685
EOD
$D17 << EOD
-9 -9
EOD
$D18 << EOD
0 0 "2.59" 0
0 1 "4.67" 0
1 0 "7.31" 0
1 1 "13.2" 16777215
2 0 "20.6" 16777215
2 1 "23.5" 16777215
EOD
plot $D16 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D17 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D18 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sample_bw-heatmap-4096.png'
set title 'send_bw: msg_rate_mpps at 4 KiB -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:2.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "4" 1, "16" 2) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:2.9513]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D19 << EOD
0 0 2.5922
0 1 2.9513
1 0 2.9424
1 1 2.9424
2 0 2.9336
2 1 2.9336
EOD
$D20 << EOD
-9 -9
EOD
$D21 << EOD
0 0 "2.59" 16777215
0 1 "2.95" 16777215
1 0 "2.94" 16777215
1 1 "2.94" 16777215
2 0 "2.93" 16777215
2 1 "2.93" 16777215
EOD
plot $D19 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D20 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D21 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sample_bw-heatmap-65536.png'
set title 'send_bw: msg_rate_mpps at 64 KiB -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
unset grid
set xrange [-0.5:2.5]
set yrange [-0.5:1.5]
set xtics ("1" 0, "4" 1, "16" 2) scale 0
set ytics ("1" 0, "16" 1) scale 0
set xlabel 'batch (WRs chained per post)'
set ylabel 'signal (one signaled WR every N)'
set cblabel 'msg_rate_mpps (Mpps)'
set cbrange [0:0.1845]
set palette defined (0 '#fff7ec', 0.35 '#fdbb84', 0.7 '#e34a33', 1 '#7f0000')
unset key
$D22 << EOD
0 0 0.1845
0 1 0.1845
1 0 0.1839
1 1 0.1839
2 0 0.1833
2 1 0.1833
EOD
$D23 << EOD
-9 -9
EOD
$D24 << EOD
0 0 "0.184" 16777215
0 1 "0.184" 16777215
1 0 "0.184" 16777215
1 1 "0.184" 16777215
2 0 "0.183" 16777215
2 1 "0.183" 16777215
EOD
plot $D22 using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 noborder fc palette, \
     $D23 using 1:2:(0.5):(0.5) with boxxyerror fs solid 1.0 noborder fc rgb '#e8e8e8', \
     $D24 using 1:2:3:4 with labels tc rgb variable font ',12'
reset
set output 'OUT/sample_bw-cpu.png'
set title 'send_bw: CPU per message against message size -- device synthetic0, host fixture-host'
set grid xtics ytics lc rgb '#d0d0d0' lw 1 dt 1
set key opaque box lc rgb '#a0a0a0'
set logscale x 2
set xrange [51.2:81920]
set xtics ("64" 64, "128" 128, "256" 256, "512" 512, "1K" 1024, "2K" 2048, "4K" 4096, "8K" 8192, "16K" 16384, "32K" 32768, "64K" 65536)
unset mxtics
set xlabel 'message size (bytes, log2 scale)'
set logscale y 10
set format y '%g'
set ylabel 'cpu (ns/msg, log scale)'
set ytics add ("2" 2, "5" 5, "20" 20, "50" 50, "200" 200, "500" 500, "2000" 2000, "5000" 5000, "20000" 20000, "50000" 50000)
set key top left
$D25 << EOD
64 385.8
512 385.8
4096 385.8
65536 5421.3
EOD
$D26 << EOD
64 214.3
512 214.3
4096 338.8
65536 5421.3
EOD
$D27 << EOD
64 136.8
512 136.8
4096 339.9
65536 5437.7
EOD
$D28 << EOD
64 76
512 76
4096 339.9
65536 5437.7
EOD
$D29 << EOD
64 48.5
512 48.5
4096 340.9
65536 5454.1
EOD
$D30 << EOD
64 33.6
512 42.6
4096 340.9
65536 5454.1
EOD
plot $D25 using 1:2 with linespoints lt 1 pt 5 dt 1 title 'batch 1 signal 1', \
     $D26 using 1:2 with linespoints lt 2 pt 7 dt 1 title 'batch 1 signal 16', \
     $D27 using 1:2 with linespoints lt 3 pt 9 dt 1 title 'batch 4 signal 1', \
     $D28 using 1:2 with linespoints lt 4 pt 11 dt 1 title 'batch 4 signal 16', \
     $D29 using 1:2 with linespoints lt 5 pt 13 dt 1 title 'batch 16 signal 1', \
     $D30 using 1:2 with linespoints lt 6 pt 15 dt 1 title 'batch 16 signal 16'
