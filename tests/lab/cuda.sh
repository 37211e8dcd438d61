#!/bin/sh
# GPU memory across the lab's wire (two hosts, one boot), with the fake
# CUDA driver the tests build (tests/fake_cuda/libcuda.so.1: host memory
# behind the driver API).  This proves the plumbing: loading the driver,
# choosing the GPU, allocating, registering (dmabuf first; Soft-RoCE
# refuses it, so the peer-memory path, ibv_reg_mr on the "device
# pointer", takes over and the JSON says why), --verify through the
# driver's copies, and each side choosing for itself.  It is not
# GPUDirect: no GPU is involved.
# - write_bw --use-cuda --verify, the GPU on the client only, the driver
#   found by LD_LIBRARY_PATH as libcuda.so.1; the server's JSON has no gpu;
# - write_bw --verify, the GPU on the server only (it checks what lands in
#   GPU memory), named by PCI address among two GPUs;
# - send_lat --use-cuda --verify on both sides, inline off on both, the
#   client's by --cuda-reg peermem (dmabuf not tried);
# - write_bw --threads 2 --use-cuda --verify: a GPU buffer per thread;
# - read_bw --cuda-mem host-pinned --verify (the client reads into it) and
#   atomic_lat --verify against a generic server whose buffers are GPU
#   memory (the words are read back through the driver);
# - --verify sees what the driver's copies carry: the fake flips a byte
#   of each cuMemcpyDtoH (server side) or cuMemcpyHtoD (client side);
# - matrix write_bw --use-cuda %r over two ranks (no launcher): with two
#   GPUs both pairs run, with one rank 1's GPU 1 is missing, named;
#   write_bw --use-cuda %l outside matrix exits 2;
# - refusals: --cuda-reg dmabuf (exit 1, naming ibv_reg_dmabuf_mr), no GPU
#   and no driver (exit 1, saying which), write_lat (exit 2: it polls its
#   buffer from the CPU) but write_lat --write-with-imm runs.
# shellcheck source=tests/lab/lib/lab.sh disable=SC2016 # $ in the guest script
. "$TOP_SRCDIR/tests/lab/lib/lab.sh"

# shellcheck disable=SC2034 # read by lab_run
LAB_HOSTS=2
LAB_TIMEOUT=${LAB_TIMEOUT:-600}
FAKE=$TOP_BUILDDIR/tests/fake_cuda/libcuda.so.1
[ -f "$FAKE" ] || fail "no $FAKE: make check builds it"

lab_run "FAKE='$FAKE'"'
C="--bind 192.0.2.2 --cpu none --timeout 30"
S="--bind 192.0.2.1 --cpu none --timeout 30"
(
	export LD_LIBRARY_PATH="${FAKE%/*}"
	pair wc "write_bw $S --json $OUT/wc.srv.json" \
		"write_bw $C --use-cuda --verify -s 4K,64K -n 200 192.0.2.1 --json $OUT/wc.json"
)
export RDMABENCH_LIBCUDA="$FAKE"
(
	export FAKE_CUDA_DEVICES=0000:3b:00.0,0000:86:00.0
	pair ws "write_bw $S --use-cuda 86:00.0 -v --json $OUT/ws.srv.json" \
		"write_bw $C --verify -s 4K,64K -n 200 192.0.2.1 --json $OUT/ws.json"
)
# The fake flips the first byte of every copy named: a server checking
# GPU memory through cuMemcpyDtoH sees it, and a client whose pattern went
# in by cuMemcpyHtoD sends it (so neither side reads or writes GPU memory
# with the CPU, behind the driver).
(
	export FAKE_CUDA_CORRUPT=cuMemcpyDtoH
	pair wsbad "write_bw $S --use-cuda" "write_bw $C --verify -s 4K -n 50 192.0.2.1"
)
(
	export FAKE_CUDA_CORRUPT=cuMemcpyHtoD
	pair wcbad "send_bw $S" "send_bw $C --use-cuda --verify -s 4K -n 50 192.0.2.1"
)
pair sl "send_lat $S --use-cuda -v" \
	"send_lat $C --use-cuda --cuda-reg peermem --verify -s 64,4096 -n 100 -I 64 -v 192.0.2.1 \
	--json $OUT/sl.json"
"$RB" server $S --use-cuda -v >"$OUT/server.out" 2>"$OUT/server.err" &
srv=$!
solo rb read_bw $C --use-cuda --cuda-mem host-pinned --verify -s 4K -n 200 192.0.2.1 \
	--json "$OUT/rb.json"
solo al atomic_lat $C --verify -n 100 192.0.2.1 --json "$OUT/al.json"
solo th write_bw $C --threads 2 --use-cuda --verify -s 4K -n 100 192.0.2.1 --json "$OUT/th.json"
solo wli write_lat $C --use-cuda --write-with-imm --verify -s 64 -n 100 192.0.2.1
solo wl write_lat $C --use-cuda -s 64 -n 100 192.0.2.1
solo dmabuf write_bw $C --use-cuda --cuda-reg dmabuf -n 50 192.0.2.1
(export FAKE_CUDA_DEVICES=none; solo nogpu write_bw $C --use-cuda -n 50 192.0.2.1)
(export RDMABENCH_LIBCUDA=/nonexistent/libcuda.so.1; solo nolib write_bw $C --use-cuda 192.0.2.1)
solo pct write_bw $C --use-cuda %l -n 50 192.0.2.1
stop_server $srv
# matrix --use-cuda %r: two ranks, no launcher; rank r takes GPU r.  With
# two GPUs both pairs run; with one, rank 1 asks for GPU 1 and fails.
mx() {
	name=$1
	shift
	for r in 1 0; do
		"$RB" matrix write_bw -d rxe%r --bind 192.0.2.%R --cpu none --timeout 30 \
			--coordinator 192.0.2.1:19200 -p 19200 --rank $r --nranks 2 --use-cuda %r \
			-s 4K -n 50 --tolerance 1000 "$@" >"$OUT/$name.$r.out" 2>"$OUT/$name.$r.err" &
		eval "pid$r=\$!"
	done
	wait "$pid1"
	echo $? >"$OUT/$name.1.rc"
	wait "$pid0"
	echo $? >"$OUT/$name.rc"
}
(export FAKE_CUDA_DEVICES=0000:3b:00.0,0000:86:00.0; mx mx2 --json "$OUT/mx2.json")
(export FAKE_CUDA_DEVICES=0000:3b:00.0; mx mx1)
'

for c in wc ws sl; do
	expect_rc $c.cli 0
	expect_rc $c.srv 0
done
for c in rb al th wli server; do
	expect_rc $c 0
done
for c in wsbad wcbad; do
	[ "$(cat "$OUT/$c.cli.rc")" != 0 ] || fail "$c: a corrupted copy passed --verify"
	expect_grep $c.srv.err 'verify: .* byte at offset 0 of iteration [0-9]* is'
done
# GPU on the client only: Soft-RoCE refuses the dma-buf, peermem takes it.
jcheck wc.json 'd["gpu"]["bus_id"] == "0000:65:00.0"' 'd["gpu"]["index"] == 0' \
	'd["gpu"]["gpus"] == 1' 'd["gpu"]["memory"] == "device"' 'd["gpu"]["reg"] == "auto"' \
	'd["gpu"]["reg_path"] == "peermem"' \
	'd["gpu"]["why_reg"].startswith("dmabuf: ibv_reg_dmabuf_mr: ")' \
	'd["gpu"]["why_reg"].endswith("; peermem: ok")' \
	'd["gpu"]["why"] == "GPU 0: the HCA has no PCI address (a software device?)"' \
	'd["gpu"]["relation"] is None' 'd["params"]["verify"] is True' \
	'[r["size"] for r in d["results"]] == [4096, 65536]' \
	'all(r["iterations"] == 200 for r in d["results"])'
jcheck wc.srv.json '"gpu" not in d' 'd["role"] == "server"'
# GPU on the server only, named by its PCI address.
jcheck ws.srv.json 'd["gpu"]["index"] == 1' 'd["gpu"]["bus_id"] == "0000:86:00.0"' \
	'd["gpu"]["gpus"] == 2' 'd["gpu"]["why"] == "--use-cuda 86:00.0"' \
	'd["gpu"]["reg_path"] == "peermem"'
jcheck ws.json '"gpu" not in d' 'all(r["iterations"] == 200 for r in d["results"])'
expect_grep ws.srv.err 'GPU memory registered by peermem'
jcheck sl.json 'd["gpu"]["reg_path"] == "peermem"' 'd["gpu"]["reg"] == "peermem"' \
	'd["gpu"]["why_reg"] == "dmabuf: not tried (--cuda-reg peermem); peermem: ok"' \
	'all(r["lat_us"]["p50"] > 0 for r in d["results"])'
expect_grep sl.cli.err 'inline 64: off, the CPU cannot read GPU device memory'
expect_grep sl.srv.err 'inline 64: off, the CPU cannot read GPU device memory'
jcheck rb.json 'd["gpu"]["memory"] == "host-pinned"' 'd["gpu"]["reg_path"] == "host"' \
	'd["results"][0]["iterations"] == 200'
jcheck al.json '"gpu" not in d' 'd["results"][0]["iterations"] == 100'
jcheck th.json 'd["gpu"]["reg_path"] == "peermem"' 'd["params"]["threads"] == 2' \
	'len(d["results"][0]["threads"]) == 2'
expect_grep server.err 'GPU memory registered by peermem'
expect_rc wl 2
expect_grep wl.err 'polls its buffer.s last byte from the CPU'
expect_rc dmabuf 1
expect_grep dmabuf.err '--cuda-reg dmabuf: dmabuf: ibv_reg_dmabuf_mr: '
expect_rc nogpu 1
expect_grep nogpu.err 'the CUDA driver sees no GPU (cuInit: CUDA_ERROR_NO_DEVICE)'
expect_rc nolib 1
expect_grep nolib.err 'cannot load the CUDA driver (/nonexistent/libcuda.so.1)'
expect_rc pct 2
expect_grep pct.err "%r, %l and their kin are matrix's"
expect_rc mx2 0
jcheck mx2.json 'd["matrix"]["bad"] == 0' 'len(d["pairs"]) == 2'
[ "$(cat "$OUT/mx1.rc")" != 0 ] || fail "matrix --use-cuda %r with one GPU: rank 1 took GPU 1?"
grep -rqF -- "--use-cuda 1: the CUDA driver sees 1 GPU" "$OUT"/mx1.* ||
	fail "matrix --use-cuda %r, one GPU: nothing names GPU 1"

# For the log: what the client wrote of its GPU.
python3 -c 'import json, sys; print("wc gpu:", json.load(open(sys.argv[1]))["gpu"])' "$OUT/wc.json"
pass
