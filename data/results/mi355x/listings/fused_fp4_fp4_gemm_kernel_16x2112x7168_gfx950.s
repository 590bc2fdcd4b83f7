; mxlib fused_fp4 path, 16x2112x7168, kernel _fp4_gemm_kernel, compiled for gfx950
; stride_ak=1 BLOCK_M=16 BLOCK_N=128 BLOCK_K=256 SPLIT_K=15 EVEN_K=True TIES_AWAY=False B_CACHE=.cg RELEASE_THREADS=256 num_warps=4 num_stages=1 waves_per_eu=0 matrix_instr_nonkdim=16
; `python -m mxlib isa --target gfx950 --path fused_fp4 --shapes 16x2112x7168 --listing DIR`, Triton 3.9.0, 2026-12-06
; source lines of the K loop (file:line: text):
;   common.py:46: bits = tl.where(s == 0, 0x400000, s << 23)
;   common.py:57: return x.to(tl.int16, bitcast=True).to(tl.int32) << 16
;   common.py:68: field = ((amax + 0x200000) >> 23) & 0xFF
;   common.py:69: return tl.where(field == 255, 127, tl.minimum(tl.maximum(field - 129, -127), 127))
;   gemm_fused_fp4.py:151: ab = ub & 0x7FFFFFFF  # |x|: non-negative floats order like their bits, and NaN/Inf bits are the largest
;   gemm_fused_fp4.py:155: qa = ab.to(tl.float32, bitcast=True) * inv[:, :, None]  # |q|
;   gemm_fused_fp4.py:157: magic = ((tl.maximum(qa.to(tl.int32, bitcast=True) >> 23, 127) << 23) + 0x0B400000).to(tl.float32, bitcast=True)
;   gemm_fused_fp4.py:158: t = qa + magic
;   gemm_fused_fp4.py:160: code = (tb & 7) + (tb >> 22) - 299
;   gemm_fused_fp4.py:167: code = code | ((ub >> 28) & 8)
;   gemm_fused_fp4.py:168: nonfinite = amax >= 0x7F800000
;   gemm_fused_fp4.py:171: packed = (lo | (hi << 4)).to(tl.uint8)
;   gemm_fused_fp4.py:172: return packed, tl.where(nonfinite, 255, e + 127).to(tl.uint8)
;   gemm_fused_fp4.py:188: raw = tl.load(b_ptr + rg[:, None] * (16 * Kb) + it * (8 * BLOCK_K) + j[None, :], mask=mask, other=0,
;   gemm_fused_fp4.py:192: return tl.trans(tl.reshape(b, (BLOCK_N, BLOCK_K // 2)))
;   gemm_fused_fp4.py:205: return tl.load(s_ptr + mx_shuffled_scale_col(g0) + s_off, mask=mask, other=127)
;   gemm_fused_fp4.py:238: for it in range(it_lo, it_hi):
;   gemm_fused_fp4.py:242: x = tl.load(a_base + it * BLOCK_K * stride_ak, mask=a_mask, other=0.0)
;   gemm_fused_fp4.py:246: acc = tl.dot_scaled(a_q, a_s, "e2m1", b, b_s, "e2m1", acc)
	.amdgcn_target "amdgpu9.50-amd-amdhsa-unknown-gfx950"
	.amdhsa_code_object_version 5
	.text
	.globl	_fp4_gemm_kernel                ; -- Begin function _fp4_gemm_kernel
	.p2align	8
	.type	_fp4_gemm_kernel,@function
_fp4_gemm_kernel:                       ; @_fp4_gemm_kernel
.Lfunc_begin0:
	.cfi_sections .debug_frame
	.cfi_startproc
; %bb.19:
	.file	1 "mxlib/kernels" "gemm_fused_fp4.py"
	.loc	1 210 0 prologue_end            ; gemm_fused_fp4.py:210:0
	s_load_dwordx2 s[2:3], s[0:1], 0x0
	s_load_dwordx8 s[4:11], s[0:1], 0x8
	s_load_dwordx4 s[12:15], s[0:1], 0x28
	s_waitcnt lgkmcnt(0)
	s_branch .LBB0_0
	.loc	1 0 0 is_stmt 0                 ; :0:0
.Ltmp0:
	.p2align	8
; %bb.20:
.LBB0_0:
	.cfi_escape 0x0f, 0x04, 0x30, 0x36, 0xe9, 0x02 ; CFA is 0 in private_wave aspace
	.cfi_undefined 16
	s_mov_b64 s[40:41], s[6:7]
.Ltmp1:
	.file	2 "triton/language" "standard.py"
	.loc	2 43 13 is_stmt 1               ; standard.py:43:13 @[ gemm_fused_fp4.py:218:13 ]
	s_add_i32 s6, s14, 15
	.loc	2 43 12 is_stmt 0               ; standard.py:43:12 @[ gemm_fused_fp4.py:218:13 ]
	s_ashr_i32 s7, s6, 31
	s_lshr_b32 s7, s7, 28
	s_add_i32 s6, s6, s7
	s_mov_b64 s[36:37], s[10:11]
	s_ashr_i32 s11, s6, 4
.Ltmp2:
	.loc	1 220 13 is_stmt 1              ; gemm_fused_fp4.py:220:13
	s_abs_i32 s17, s11
	v_cvt_f32_u32_e32 v1, s17
	.loc	1 217 12                        ; gemm_fused_fp4.py:217:12
	s_mul_hi_i32 s7, s16, 0x88888889
	s_mov_b64 s[44:45], s[2:3]
	s_load_dword s2, s[0:1], 0x48
	s_load_dword s10, s[0:1], 0x38
	.loc	1 220 13                        ; gemm_fused_fp4.py:220:13
	v_rcp_f32_e32 v1, v1
	.loc	1 217 12                        ; gemm_fused_fp4.py:217:12
	s_add_i32 s7, s7, s16
	s_lshr_b32 s18, s7, 31
	s_ashr_i32 s7, s7, 3
	.loc	1 220 13                        ; gemm_fused_fp4.py:220:13
	v_mul_f32_e32 v1, 0x4f7ffffe, v1
	v_cvt_u32_f32_e32 v1, v1
	.loc	1 217 12                        ; gemm_fused_fp4.py:217:12
	s_add_i32 s34, s7, s18
	.loc	1 220 13                        ; gemm_fused_fp4.py:220:13
	s_ashr_i32 s19, s6, 31
	s_sub_i32 s6, 0, s17
	v_readfirstlane_b32 s7, v1
	s_mul_i32 s6, s6, s7
	s_waitcnt lgkmcnt(0)
	s_ashr_i32 s3, s2, 31
.Ltmp3:
	.file	3 "mxlib/kernels" "arrival.py"
	.loc	3 75 9                          ; arrival.py:75:9 @[ gemm_fused_fp4.py:260:12 ]
	v_readfirstlane_b32 s31, v0
.Ltmp4:
	.loc	1 220 13                        ; gemm_fused_fp4.py:220:13
	s_ashr_i32 s35, s34, 31
	s_mul_hi_u32 s6, s7, s6
	.loc	1 265 13                        ; gemm_fused_fp4.py:265:13
	s_lshr_b32 s30, s31, 6
	.loc	1 220 13                        ; gemm_fused_fp4.py:220:13
	s_abs_i32 s18, s34
	s_add_i32 s7, s7, s6
.Ltmp5:
	.loc	3 65 28                         ; arrival.py:65:28 @[ gemm_fused_fp4.py:227:9 ]
	s_lshl_b64 s[48:49], s[2:3], 20
	.loc	3 65 5 is_stmt 0                ; arrival.py:65:5 @[ gemm_fused_fp4.py:227:9 ]
	s_lshl_b64 s[2:3], s[34:35], 3
	v_and_b32_e32 v1, 63, v0
	s_add_u32 s38, s12, s2
	v_or_b32_e32 v2, s30, v1
.Ltmp6:
	.loc	1 220 13 is_stmt 1              ; gemm_fused_fp4.py:220:13
	s_mul_hi_u32 s20, s18, s7
.Ltmp7:
	.loc	3 65 5                          ; arrival.py:65:5 @[ gemm_fused_fp4.py:227:9 ]
	s_addc_u32 s39, s13, s3
	v_cmp_eq_u32_e64 s[2:3], 0, v2
	s_and_saveexec_b64 s[6:7], s[2:3]
	s_cbranch_execz .LBB0_3
; %bb.1:
	v_mbcnt_lo_u32_b32 v2, exec_lo, 0
	v_mbcnt_hi_u32_b32 v2, exec_hi, v2
	v_cmp_eq_u32_e32 vcc, 0, v2
	s_and_b64 exec, exec, vcc
	s_cbranch_execz .LBB0_3
; %bb.2:
	v_mov_b32_e32 v2, 0
	v_mov_b64_e32 v[4:5], s[48:49]
	global_atomic_smax_x2 v2, v[4:5], s[38:39]
.Ltmp8:
.LBB0_3:
	.loc	3 0 5 is_stmt 0                 ; arrival.py:0:5
	s_or_b64 exec, exec, s[6:7]
	.loc	1 220 13 is_stmt 1              ; gemm_fused_fp4.py:220:13
	s_mul_i32 s12, s20, s17
	.loc	1 216 13                        ; gemm_fused_fp4.py:216:13
	s_mul_i32 s6, s34, 15
	.loc	1 220 13                        ; gemm_fused_fp4.py:220:13
	s_sub_i32 s12, s18, s12
	.loc	1 216 13                        ; gemm_fused_fp4.py:216:13
	s_sub_i32 s6, s16, s6
	.loc	1 220 13                        ; gemm_fused_fp4.py:220:13
	s_xor_b32 s7, s35, s19
	s_add_i32 s13, s20, 1
	s_sub_i32 s18, s12, s17
	s_cmp_ge_u32 s12, s17
	s_cselect_b32 s13, s13, s20
	s_cselect_b32 s12, s18, s12
	s_add_i32 s18, s13, 1
	s_cmp_ge_u32 s12, s17
	s_cselect_b32 s12, s18, s13
	s_xor_b32 s12, s12, s7
	s_sub_i32 s12, s12, s7
	.loc	1 219 13                        ; gemm_fused_fp4.py:219:13
	s_mul_i32 s7, s12, s11
	s_sub_i32 s11, s34, s7
.Ltmp9:
	.loc	2 43 13                         ; standard.py:43:13 @[ gemm_fused_fp4.py:223:13 ]
	s_add_i32 s7, s10, 0xff
	.loc	2 43 12 is_stmt 0               ; standard.py:43:12 @[ gemm_fused_fp4.py:223:13 ]
	s_ashr_i32 s13, s7, 31
	s_lshr_b32 s13, s13, 24
	s_add_i32 s7, s7, s13
	s_ashr_i32 s7, s7, 8
.Ltmp10:
	.loc	1 224 13 is_stmt 1              ; gemm_fused_fp4.py:224:13
	s_mul_i32 s6, s7, s6
	s_mul_hi_i32 s13, s6, 0x88888889
	s_add_i32 s13, s13, s6
	.loc	1 225 13                        ; gemm_fused_fp4.py:225:13
	s_add_i32 s6, s6, s7
	s_mul_hi_i32 s7, s6, 0x88888889
	s_add_i32 s7, s7, s6
	.loc	1 224 13                        ; gemm_fused_fp4.py:224:13
	s_lshr_b32 s17, s13, 31
	s_ashr_i32 s13, s13, 3
	.loc	1 225 13                        ; gemm_fused_fp4.py:225:13
	s_lshr_b32 s6, s7, 31
	s_ashr_i32 s50, s7, 3
	.loc	1 229 28                        ; gemm_fused_fp4.py:229:28
	s_lshl_b32 s42, s30, 6
	.loc	1 224 13                        ; gemm_fused_fp4.py:224:13
	s_add_i32 s35, s13, s17
	.loc	1 225 13                        ; gemm_fused_fp4.py:225:13
	s_add_i32 s50, s50, s6
	.loc	1 229 28                        ; gemm_fused_fp4.py:229:28
	v_or_b32_e32 v17, s42, v1
	.loc	1 230 28                        ; gemm_fused_fp4.py:230:28
	v_and_b32_e32 v16, 15, v0
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	s_cmp_lt_i32 s35, s50
	v_lshlrev_b32_e32 v19, 7, v16
	v_lshlrev_b32_e32 v18, 2, v17
	s_cbranch_scc1 .LBB0_5
; %bb.4:                                ; %.._crit_edge_crit_edge
	.loc	1 0 5 is_stmt 0                 ; gemm_fused_fp4.py:0:5
	s_mov_b64 s[6:7], 0
	s_branch .LBB0_6
.LBB0_5:
	s_mov_b64 s[6:7], -1
.LBB0_6:                                ; %Flow29
	s_lshl_b32 s17, s11, 4
	s_lshl_b32 s33, s12, 7
	s_and_b64 s[6:7], s[6:7], exec
	s_cselect_b32 s6, 1, 0
	s_cmp_lg_u32 s6, 1
	s_cbranch_scc1 .LBB0_9
; %bb.7:                                ; %.lr.ph
	.loc	1 229 28 is_stmt 1              ; gemm_fused_fp4.py:229:28
	v_lshrrev_b32_e32 v1, 5, v17
	.loc	1 230 28                        ; gemm_fused_fp4.py:230:28
	v_lshrrev_b32_e32 v3, 3, v17
	.loc	1 244 36                        ; gemm_fused_fp4.py:244:36
	s_ashr_i32 s18, s15, 31
	.loc	1 221 10                        ; gemm_fused_fp4.py:221:10
	s_lshr_b32 s7, s10, 31
	.loc	1 229 10                        ; gemm_fused_fp4.py:229:10
	v_or_b32_e32 v2, s17, v1
	.loc	1 230 10                        ; gemm_fused_fp4.py:230:10
	v_or_b32_e32 v3, s33, v3
	.loc	1 231 10                        ; gemm_fused_fp4.py:231:10
	s_lshl_b32 s51, s12, 3
	.loc	1 231 36 is_stmt 0              ; gemm_fused_fp4.py:231:36
	s_lshr_b32 s53, s30, 1
	.loc	1 244 36 is_stmt 1              ; gemm_fused_fp4.py:244:36
	s_lshr_b32 s18, s18, 28
	s_load_dword s43, s[0:1], 0x3c
	s_load_dword s6, s[0:1], 0x44
	.loc	1 221 10                        ; gemm_fused_fp4.py:221:10
	s_add_i32 s10, s10, s7
	.loc	1 231 10                        ; gemm_fused_fp4.py:231:10
	s_or_b32 s7, s51, s53
	.loc	1 239 19                        ; gemm_fused_fp4.py:239:19
	v_cmp_gt_i32_e64 s[28:29], s14, v2
	.loc	1 244 36                        ; gemm_fused_fp4.py:244:36
	s_add_i32 s18, s15, s18
.Ltmp11:
	.file	4 "mxlib/kernels" "common.py"
	.loc	4 122 13                        ; common.py:122:13 @[ gemm_fused_fp4.py:232:13 ]
	v_ashrrev_i32_e32 v2, 31, v3
.Ltmp12:
	.loc	1 221 10                        ; gemm_fused_fp4.py:221:10
	s_ashr_i32 s52, s10, 1
	.loc	1 231 10                        ; gemm_fused_fp4.py:231:10
	s_or_b32 s20, s7, 2
	s_or_b32 s22, s7, 4
	s_or_b32 s24, s7, 6
	.loc	1 244 36                        ; gemm_fused_fp4.py:244:36
	s_ashr_i32 s25, s18, 4
.Ltmp13:
	.loc	4 122 13                        ; common.py:122:13 @[ gemm_fused_fp4.py:232:13 ]
	v_lshrrev_b32_e32 v2, 27, v2
.Ltmp14:
	.loc	1 230 10                        ; gemm_fused_fp4.py:230:10
	v_or_b32_e32 v4, 32, v3
	v_or_b32_e32 v5, 64, v3
	v_or_b32_e32 v6, 0x60, v3
.Ltmp15:
	.loc	1 185 13                        ; gemm_fused_fp4.py:185:13 @[ gemm_fused_fp4.py:244:13 ]
	s_cmp_lt_i32 s7, s25
.Ltmp16:
	.loc	4 122 13                        ; common.py:122:13 @[ gemm_fused_fp4.py:232:13 ]
	v_add_u32_e32 v7, v3, v2
.Ltmp17:
	.loc	1 233 15                        ; gemm_fused_fp4.py:233:15
	v_cmp_gt_i32_e64 s[10:11], s15, v4
	v_cmp_gt_i32_e64 s[12:13], s15, v5
	v_cmp_gt_i32_e64 s[26:27], s15, v6
.Ltmp18:
	.loc	1 185 13                        ; gemm_fused_fp4.py:185:13 @[ gemm_fused_fp4.py:244:13 ]
	s_cselect_b64 s[18:19], -1, 0
	s_cmp_lt_i32 s20, s25
.Ltmp19:
	.loc	4 122 13                        ; common.py:122:13 @[ gemm_fused_fp4.py:232:13 ]
	v_add_u32_e32 v6, v6, v2
	v_add_u32_e32 v5, v5, v2
	v_add_u32_e32 v4, v4, v2
	v_lshrrev_b32_e32 v2, 5, v7
	.loc	4 122 50 is_stmt 0              ; common.py:122:50 @[ gemm_fused_fp4.py:232:13 ]
	v_and_b32_e32 v7, 0xffe0, v7
.Ltmp20:
	.loc	1 185 13 is_stmt 1              ; gemm_fused_fp4.py:185:13 @[ gemm_fused_fp4.py:244:13 ]
	s_cselect_b64 s[20:21], -1, 0
	s_cmp_lt_i32 s22, s25
.Ltmp21:
	.loc	4 122 13                        ; common.py:122:13 @[ gemm_fused_fp4.py:232:13 ]
	v_lshrrev_b32_e32 v6, 5, v6
	v_lshrrev_b32_e32 v5, 5, v5
	v_lshrrev_b32_e32 v4, 5, v4
.Ltmp22:
	.loc	1 235 48                        ; gemm_fused_fp4.py:235:48
	v_lshlrev_b32_e32 v9, 3, v0
.Ltmp23:
	.loc	4 122 50                        ; common.py:122:50 @[ gemm_fused_fp4.py:232:13 ]
	v_sub_u32_e32 v7, v3, v7
.Ltmp24:
	.loc	1 185 13                        ; gemm_fused_fp4.py:185:13 @[ gemm_fused_fp4.py:244:13 ]
	s_cselect_b64 s[22:23], -1, 0
	s_cmp_lt_i32 s24, s25
.Ltmp25:
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	s_waitcnt lgkmcnt(0)
	v_mul_lo_u32 v6, s6, v6
	v_mul_lo_u32 v5, s6, v5
	v_mul_lo_u32 v4, s6, v4
	v_mul_lo_u32 v8, s6, v2
	.loc	1 235 14                        ; gemm_fused_fp4.py:235:14
	s_mul_i32 s6, s17, s43
	.loc	1 235 48 is_stmt 0              ; gemm_fused_fp4.py:235:48
	v_and_b32_e32 v2, 0xf8, v9
.Ltmp26:
	.loc	4 122 49 is_stmt 1              ; common.py:122:49 @[ gemm_fused_fp4.py:232:13 ]
	v_bfe_i32 v11, v7, 0, 8
.Ltmp27:
	.loc	1 185 13                        ; gemm_fused_fp4.py:185:13 @[ gemm_fused_fp4.py:244:13 ]
	s_cselect_b64 s[24:25], -1, 0
.Ltmp28:
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	v_add_u32_e32 v2, s6, v2
.Ltmp29:
	.loc	4 122 49                        ; common.py:122:49 @[ gemm_fused_fp4.py:232:13 ]
	v_bfe_u32 v11, v11, 11, 4
	.loc	4 122 35 is_stmt 0              ; common.py:122:35 @[ gemm_fused_fp4.py:232:13 ]
	s_ashr_i32 s6, s33, 31
	.loc	4 122 49                        ; common.py:122:49 @[ gemm_fused_fp4.py:232:13 ]
	v_add_u16_e32 v7, v7, v11
	v_mov_b32_e32 v11, 4
	.loc	4 122 35                        ; common.py:122:35 @[ gemm_fused_fp4.py:232:13 ]
	s_lshr_b32 s6, s6, 28
	.loc	4 122 49                        ; common.py:122:49 @[ gemm_fused_fp4.py:232:13 ]
	v_ashrrev_i16_sdwa v7, v11, sext(v7) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0
	.loc	4 122 35                        ; common.py:122:35 @[ gemm_fused_fp4.py:232:13 ]
	v_add_u32_e32 v11, s6, v3
	v_and_b32_e32 v11, 0x3ffffff0, v11
.Ltmp30:
	.loc	1 233 15 is_stmt 1              ; gemm_fused_fp4.py:233:15
	v_cmp_gt_i32_e32 vcc, s15, v3
.Ltmp31:
	.loc	4 122 35                        ; common.py:122:35 @[ gemm_fused_fp4.py:232:13 ]
	v_sub_u32_e32 v3, v3, v11
.Ltmp32:
	.loc	1 229 28                        ; gemm_fused_fp4.py:229:28
	v_or_b32_e32 v11, 8, v1
.Ltmp33:
	.loc	1 188 42                        ; gemm_fused_fp4.py:188:42 @[ gemm_fused_fp4.py:244:13 ]
	s_lshl_b32 s54, s52, 4
.Ltmp34:
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	v_mad_u64_u32 v[12:13], s[6:7], v1, s43, v[2:3]
	v_mad_u64_u32 v[14:15], s[6:7], v11, s43, v[2:3]
.Ltmp35:
	.loc	1 188 74                        ; gemm_fused_fp4.py:188:74 @[ gemm_fused_fp4.py:244:13 ]
	v_lshlrev_b32_e32 v10, 4, v17
	s_mul_i32 s6, s53, s54
	s_lshl_b32 s7, s52, 5
	v_and_b32_e32 v10, 0x7f0, v10
.Ltmp36:
	.loc	1 231 36                        ; gemm_fused_fp4.py:231:36
	s_and_b32 s42, s42, 0x80
	s_add_i32 s7, s6, s7
	s_lshl_b32 s43, s52, 6
	s_mulk_i32 s52, 0x60
	v_lshlrev_b32_e32 v1, 5, v17
	v_and_b32_e32 v11, 32, v0
	s_add_i32 s43, s6, s43
	s_add_i32 s52, s6, s52
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	v_add_u32_e32 v13, s6, v10
	v_add_u32_e32 v15, s7, v10
	v_and_b32_e32 v1, 0xc00, v1
	v_lshlrev_b32_e32 v2, 4, v16
	s_lshl1_add_u32 s6, s42, 0
	s_lshl_b32 s7, s30, 8
	v_lshlrev_b32_e32 v22, 5, v11
	v_lshrrev_b32_e32 v23, 1, v0
	v_add3_u32 v1, s6, v1, v2
	v_add3_u32 v2, s7, v22, v2
	v_lshlrev_b32_e32 v22, 6, v0
	v_and_b32_e32 v23, 2, v23
	s_movk_i32 s7, 0xc0
	v_and_or_b32 v22, v22, s7, v23
.Ltmp37:
	.loc	4 122 49                        ; common.py:122:49 @[ gemm_fused_fp4.py:232:13 ]
	v_bfe_i32 v7, v7, 0, 16
	v_lshlrev_b32_e32 v8, 5, v8
	v_lshlrev_b32_e32 v4, 5, v4
	v_lshlrev_b32_e32 v5, 5, v5
	v_lshlrev_b32_e32 v6, 5, v6
.Ltmp38:
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	v_lshl_add_u32 v3, v3, 2, v22
	s_lshl_b32 s7, s30, 4
	v_add3_u32 v22, v3, v8, v7
	v_add3_u32 v23, v3, v4, v7
	v_add3_u32 v24, v3, v5, v7
	v_add3_u32 v25, v3, v6, v7
	v_xor_b32_e32 v3, s7, v18
	s_movk_i32 s7, 0x70
	v_and_b32_e32 v6, 48, v0
	v_lshlrev_b32_e32 v8, 2, v0
	v_and_b32_e32 v5, 0x70, v9
	v_bitop3_b32 v7, v9, v6, s7 bitop3:0x6c
	v_and_b32_e32 v9, 0x70, v8
	v_lshrrev_b32_e32 v11, 3, v11
	v_add3_u32 v9, 0, v11, v9
	v_and_b32_e32 v11, 56, v0
	v_bfe_u32 v26, v0, 1, 2
	v_and_b32_e32 v8, 4, v8
	v_add3_u32 v8, 0, v26, v8
	v_lshlrev_b32_e32 v26, 5, v0
	v_lshrrev_b32_e32 v27, 1, v11
	s_bfe_i32 s7, s31, 0x10006
	s_movk_i32 s31, 0xe0
	v_add_u32_e32 v20, s43, v10
	v_add_u32_e32 v21, s52, v10
	v_lshlrev_b32_e32 v10, 8, v0
	v_and_or_b32 v26, v26, s31, v27
	v_mov_b32_e32 v27, 0x280
	v_bfe_i32 v0, v0, 3, 1
	v_bitop3_b32 v5, v5, v19, v6 bitop3:0xde
	v_bitop3_b32 v38, s7, v26, v27 bitop3:0x6c
	v_lshlrev_b32_e32 v6, 1, v6
	v_and_b32_e32 v0, 0x280, v0
	s_lshr_b32 s7, s42, 6
	s_movk_i32 s31, 0x11c
	.loc	1 231 36                        ; gemm_fused_fp4.py:231:36
	s_movk_i32 s55, 0x80
	v_and_or_b32 v6, v18, s31, v6
	v_or_b32_e32 v0, s7, v0
	v_and_b32_e32 v10, 0x1000, v10
	v_xor_b32_e32 v4, 64, v3
	v_bitop3_b32 v7, v7, 64, v19 bitop3:0x36
	v_or_b32_e32 v39, v6, v0
	v_bitop3_b32 v6, v6, s55, v0 bitop3:0x36
	v_mov_b32_e32 v0, 0
.Ltmp39:
	.loc	1 188 19                        ; gemm_fused_fp4.py:188:19 @[ gemm_fused_fp4.py:244:13 ]
	s_mul_i32 s51, s51, s54
	s_and_b32 s45, s45, 0xffff
	s_mov_b32 s47, 0x27000
	s_mov_b32 s46, 0x7ffffffe
	s_and_b32 s5, s5, 0xffff
	s_and_b32 s41, s41, 0xffff
	v_bfrev_b32_e32 v26, 1
	s_movk_i32 s52, 0xff
	s_movk_i32 s53, 0x7f
	v_mov_b32_e32 v27, 0x7f
	v_mov_b32_e32 v28, 0x400000
	v_mov_b32_e32 v29, 0xb400000
	s_movk_i32 s54, 0xd5
	s_mov_b32 s55, 0x7f7fffff
	v_add_u32_e32 v30, v1, v10
	v_add_u32_e32 v31, v2, v10
	v_add_u32_e32 v32, 0, v3
	v_add_u32_e32 v33, 0, v4
	v_add_u32_e32 v34, 0, v5
	v_add_u32_e32 v35, 0, v7
	v_add_u32_e32 v36, s30, v9
	v_add_u32_e32 v37, v8, v11
	v_add_u32_e32 v38, s6, v38
	v_add_u32_e32 v39, 0, v39
	v_add_u32_e32 v40, 0, v6
	s_mov_b32 s56, 0xc0c0004
	s_mov_b32 s57, 0x1050004
	v_mov_b32_e32 v41, 12
	v_mov_b32_e32 v1, v0
	v_mov_b32_e32 v2, v0
	v_mov_b32_e32 v3, v0
	v_mov_b32_e32 v4, v0
	v_mov_b32_e32 v5, v0
	v_mov_b32_e32 v6, v0
	v_mov_b32_e32 v7, v0
.Ltmp40:
.LBB0_8:                                ; =>This Inner Loop Header: Depth=1
	.loc	1 242 30                        ; gemm_fused_fp4.py:242:30
	s_lshl_b32 s42, s35, 8
	.loc	1 242 13 is_stmt 0              ; gemm_fused_fp4.py:242:13
	v_add_lshl_u32 v8, s42, v12, 1
	v_cndmask_b32_e64 v8, v26, v8, s[28:29]
	buffer_load_dwordx4 v[42:45], v8, s[44:47], 0 offen
	v_add_lshl_u32 v8, s42, v14, 1
	v_cndmask_b32_e64 v8, v26, v8, s[28:29]
	buffer_load_dwordx4 v[8:11], v8, s[44:47], 0 offen
.Ltmp41:
	.loc	1 205 12 is_stmt 1              ; gemm_fused_fp4.py:205:12 @[ gemm_fused_fp4.py:245:15 ]
	s_mov_b32 s43, s47
.Ltmp42:
	.loc	4 57 16                         ; common.py:57:16 @[ gemm_fused_fp4.py:243:34 ]
	s_waitcnt vmcnt(1)
	v_lshlrev_b32_e32 v46, 16, v43
	v_lshlrev_b32_e32 v48, 16, v42
	v_and_b32_e32 v50, 0xffff0000, v42
.Ltmp43:
	.loc	1 151 10                        ; gemm_fused_fp4.py:151:10 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v47, 0x7fff0000, v46
	v_and_b32_e32 v46, 0x7fff0000, v48
	v_and_b32_e32 v48, 0x7fff0000, v50
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v50, v41, sext(v43) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v51, v41, sext(v42) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v61, v41, sext(v42) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
	.loc	1 167 24 is_stmt 0              ; gemm_fused_fp4.py:167:24 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v62, 8, v50
.Ltmp44:
	.loc	4 57 16 is_stmt 1               ; common.py:57:16 @[ gemm_fused_fp4.py:243:34 ]
	v_lshlrev_b32_e32 v42, 16, v45
	v_lshlrev_b32_e32 v50, 16, v44
	v_and_b32_e32 v53, 0xffff0000, v44
	v_and_b32_e32 v49, 0xffff0000, v43
.Ltmp45:
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v60, v41, sext(v43) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
	.loc	1 151 10                        ; gemm_fused_fp4.py:151:10 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v43, 0x7fff0000, v42
	v_and_b32_e32 v42, 0x7fff0000, v50
	v_and_b32_e32 v50, 0x7fff0000, v53
	v_and_b32_e32 v49, 0x7fff0000, v49
.Ltmp46:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max3_u32 v52, v46, v48, v47
.Ltmp47:
	.loc	1 167 24                        ; gemm_fused_fp4.py:167:24 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v63, 8, v51
.Ltmp48:
	.loc	4 57 16                         ; common.py:57:16 @[ gemm_fused_fp4.py:243:34 ]
	v_and_b32_e32 v51, 0xffff0000, v45
.Ltmp49:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max3_u32 v53, v42, v50, v43
.Ltmp50:
	.loc	1 151 10                        ; gemm_fused_fp4.py:151:10 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v51, 0x7fff0000, v51
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v55, v41, sext(v44) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v65, v41, sext(v44) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
.Ltmp51:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max3_u32 v44, v52, v49, v53
	v_max_u32_e32 v44, v44, v51
.Ltmp52:
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v54, v41, sext(v45) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v64, v41, sext(v45) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
.Ltmp53:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max_i32_dpp v44, v44, v44 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
.Ltmp54:
	.loc	1 167 24                        ; gemm_fused_fp4.py:167:24 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v66, 8, v54
	v_and_b32_e32 v67, 8, v55
.Ltmp55:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max_i32_dpp v68, v44, v44 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
.Ltmp56:
	.loc	4 68 15                         ; common.py:68:15 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_add_u32_e32 v44, 0x200000, v68
	.loc	4 68 13 is_stmt 0               ; common.py:68:13 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_bfe_u32 v44, v44, 23, 8
	.loc	4 69 51 is_stmt 1               ; common.py:69:51 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_max_u32_e32 v45, 2, v44
	.loc	4 69 40 is_stmt 0               ; common.py:69:40 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_add_u32_e32 v45, 0xffffff7f, v45
	.loc	4 69 12                         ; common.py:69:12 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_cmp_ne_u32_e64 s[6:7], s52, v44
	s_nop 1
	v_cndmask_b32_e64 v69, v27, v45, s[6:7]
.Ltmp57:
	.loc	4 46 39 is_stmt 1               ; common.py:46:39 @[ gemm_fused_fp4.py:154:11 @[ gemm_fused_fp4.py:243:20 ] ]
	v_lshlrev_b32_e32 v44, 23, v69
	v_sub_u32_e32 v44, 1.0, v44
	.loc	4 46 12 is_stmt 0               ; common.py:46:12 @[ gemm_fused_fp4.py:154:11 @[ gemm_fused_fp4.py:243:20 ] ]
	v_cmp_ne_u32_e64 s[6:7], s53, v69
	s_nop 1
	v_cndmask_b32_e64 v44, v28, v44, s[6:7]
.Ltmp58:
	.loc	1 155 10 is_stmt 1              ; gemm_fused_fp4.py:155:10 @[ gemm_fused_fp4.py:243:20 ]
	v_pk_mul_f32 v[52:53], v[44:45], v[46:47] op_sel_hi:[0,1]
	v_pk_mul_f32 v[54:55], v[44:45], v[48:49] op_sel_hi:[0,1]
	v_pk_mul_f32 v[56:57], v[44:45], v[42:43] op_sel_hi:[0,1]
	v_pk_mul_f32 v[58:59], v[44:45], v[50:51] op_sel_hi:[0,1]
	.loc	1 157 26                        ; gemm_fused_fp4.py:157:26 @[ gemm_fused_fp4.py:243:20 ]
	v_ashrrev_i32_e32 v45, 23, v54
	v_ashrrev_i32_e32 v53, 23, v53
	v_ashrrev_i32_e32 v52, 23, v52
	v_ashrrev_i32_e32 v54, 23, v55
	v_ashrrev_i32_e32 v55, 23, v57
	v_ashrrev_i32_e32 v56, 23, v56
	v_ashrrev_i32_e32 v57, 23, v59
	v_ashrrev_i32_e32 v58, 23, v58
	.loc	1 157 15 is_stmt 0              ; gemm_fused_fp4.py:157:15 @[ gemm_fused_fp4.py:243:20 ]
	v_max_i32_e32 v53, 0x7f, v53
	v_max_i32_e32 v52, 0x7f, v52
	v_max_i32_e32 v54, 0x7f, v54
	v_max_i32_e32 v45, 0x7f, v45
	v_max_i32_e32 v56, 0x7f, v56
	v_max_i32_e32 v59, 0x7f, v55
	v_max_i32_e32 v58, 0x7f, v58
	v_max_i32_e32 v70, 0x7f, v57
	.loc	1 157 14                        ; gemm_fused_fp4.py:157:14 @[ gemm_fused_fp4.py:243:20 ]
	v_lshl_add_u32 v53, v53, 23, v29
	v_lshl_add_u32 v52, v52, 23, v29
	v_lshl_add_u32 v55, v54, 23, v29
	v_lshl_add_u32 v54, v45, 23, v29
	v_lshl_add_u32 v57, v59, 23, v29
	v_lshl_add_u32 v56, v56, 23, v29
	v_lshl_add_u32 v59, v70, 23, v29
	v_lshl_add_u32 v58, v58, 23, v29
	.loc	1 158 9 is_stmt 1               ; gemm_fused_fp4.py:158:9 @[ gemm_fused_fp4.py:243:20 ]
	v_pk_fma_f32 v[46:47], v[44:45], v[46:47], v[52:53] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[48:49], v[44:45], v[48:49], v[54:55] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[42:43], v[44:45], v[42:43], v[56:57] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[44:45], v[44:45], v[50:51], v[58:59] op_sel_hi:[0,1,1]
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v56, 7, v45
	.loc	1 160 24 is_stmt 0              ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_ashrrev_i32_e32 v45, 22, v45
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v52, 7, v49
	v_and_b32_e32 v57, 7, v44
	.loc	1 160 24                        ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_ashrrev_i32_e32 v49, 22, v49
	v_ashrrev_i32_e32 v44, 22, v44
	.loc	1 160 12                        ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v45, v45, v56, 5
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v53, 7, v48
	v_and_b32_e32 v54, 7, v43
	.loc	1 160 24                        ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_ashrrev_i32_e32 v48, 22, v48
	v_lshrrev_b32_e32 v43, 22, v43
	.loc	1 160 12                        ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v49, v49, v52, 5
	v_add3_u32 v44, v44, v57, 5
	.loc	1 167 16 is_stmt 1              ; gemm_fused_fp4.py:167:16 @[ gemm_fused_fp4.py:243:20 ]
	v_and_or_b32 v45, v64, 8, v45
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v50, 7, v47
	v_and_b32_e32 v55, 7, v42
	.loc	1 160 24 is_stmt 0              ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_e32 v47, 22, v47
	v_lshrrev_b32_e32 v42, 22, v42
	.loc	1 160 12                        ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v48, v48, v53, 5
	v_add3_u32 v43, v43, v54, s54
	.loc	1 167 16 is_stmt 1              ; gemm_fused_fp4.py:167:16 @[ gemm_fused_fp4.py:243:20 ]
	v_and_or_b32 v49, v60, 8, v49
	v_and_or_b32 v44, v65, 8, v44
	.loc	1 171 21                        ; gemm_fused_fp4.py:171:21 @[ gemm_fused_fp4.py:243:20 ]
	v_lshlrev_b32_e32 v45, 4, v45
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v51, 7, v46
	.loc	1 160 24 is_stmt 0              ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_e32 v46, 22, v46
	.loc	1 160 12                        ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v47, v47, v50, s54
	v_add3_u32 v42, v42, v55, s54
	.loc	1 167 16 is_stmt 1              ; gemm_fused_fp4.py:167:16 @[ gemm_fused_fp4.py:243:20 ]
	v_and_or_b32 v48, v61, 8, v48
	.loc	1 168 17                        ; gemm_fused_fp4.py:168:17 @[ gemm_fused_fp4.py:243:20 ]
	v_cmp_lt_u32_e64 s[6:7], s55, v68
	.loc	1 171 21                        ; gemm_fused_fp4.py:171:21 @[ gemm_fused_fp4.py:243:20 ]
	v_lshlrev_b32_e32 v49, 4, v49
	v_lshlrev_b32_e32 v44, 4, v44
	.loc	1 171 15 is_stmt 0              ; gemm_fused_fp4.py:171:15 @[ gemm_fused_fp4.py:243:20 ]
	v_or3_b32 v43, v43, v66, v45
	.loc	1 160 12 is_stmt 1              ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v46, v46, v51, s54
	.loc	1 171 21                        ; gemm_fused_fp4.py:171:21 @[ gemm_fused_fp4.py:243:20 ]
	v_lshlrev_b32_e32 v48, 4, v48
	.loc	1 171 15 is_stmt 0              ; gemm_fused_fp4.py:171:15 @[ gemm_fused_fp4.py:243:20 ]
	v_or3_b32 v47, v47, v62, v49
	v_or3_b32 v42, v42, v67, v44
	v_cndmask_b32_e64 v43, v43, 0, s[6:7]
	v_or3_b32 v46, v46, v63, v48
	v_cndmask_b32_e64 v45, v47, 0, s[6:7]
	v_cndmask_b32_e64 v42, v42, 0, s[6:7]
	v_lshlrev_b16_e32 v43, 8, v43
	v_cndmask_b32_e64 v44, v46, 0, s[6:7]
	v_lshlrev_b16_e32 v45, 8, v45
	v_bitop3_b16 v42, v42, v43, s52 bitop3:0xec
.Ltmp59:
	.loc	4 57 16 is_stmt 1               ; common.py:57:16 @[ gemm_fused_fp4.py:243:34 ]
	s_waitcnt vmcnt(0)
	v_and_b32_e32 v46, 0xffff0000, v9
	v_and_b32_e32 v48, 0xffff0000, v8
.Ltmp60:
	.loc	1 171 15                        ; gemm_fused_fp4.py:171:15 @[ gemm_fused_fp4.py:243:20 ]
	v_bitop3_b16 v44, v44, v45, s52 bitop3:0xec
	v_lshlrev_b32_e32 v42, 16, v42
	.loc	1 151 10                        ; gemm_fused_fp4.py:151:10 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v47, 0x7fff0000, v46
	v_and_b32_e32 v46, 0x7fff0000, v48
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v48, v41, sext(v9) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	.loc	1 171 15                        ; gemm_fused_fp4.py:171:15 @[ gemm_fused_fp4.py:243:20 ]
	v_or_b32_sdwa v42, v42, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
.Ltmp61:
	.loc	4 57 16                         ; common.py:57:16 @[ gemm_fused_fp4.py:243:34 ]
	v_lshlrev_b32_e32 v43, 16, v9
	v_lshlrev_b32_e32 v44, 16, v8
.Ltmp62:
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v49, v41, sext(v8) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v59, v41, sext(v8) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
	.loc	1 167 24 is_stmt 0              ; gemm_fused_fp4.py:167:24 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v60, 8, v48
.Ltmp63:
	.loc	4 57 16 is_stmt 1               ; common.py:57:16 @[ gemm_fused_fp4.py:243:34 ]
	v_lshlrev_b32_e32 v8, 16, v11
	v_lshlrev_b32_e32 v48, 16, v10
	v_and_b32_e32 v50, 0xffff0000, v10
.Ltmp64:
	.loc	1 151 10                        ; gemm_fused_fp4.py:151:10 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v45, 0x7fff0000, v43
	v_and_b32_e32 v44, 0x7fff0000, v44
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v58, v41, sext(v9) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
	.loc	1 151 10                        ; gemm_fused_fp4.py:151:10 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v9, 0x7fff0000, v8
	v_and_b32_e32 v8, 0x7fff0000, v48
	v_and_b32_e32 v48, 0x7fff0000, v50
.Ltmp65:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max3_u32 v43, v44, v46, v45
.Ltmp66:
	.loc	1 167 24                        ; gemm_fused_fp4.py:167:24 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v61, 8, v49
.Ltmp67:
	.loc	4 57 16                         ; common.py:57:16 @[ gemm_fused_fp4.py:243:34 ]
	v_and_b32_e32 v49, 0xffff0000, v11
.Ltmp68:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max3_u32 v50, v8, v48, v9
.Ltmp69:
	.loc	1 151 10                        ; gemm_fused_fp4.py:151:10 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v49, 0x7fff0000, v49
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v52, v41, sext(v10) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v63, v41, sext(v10) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
.Ltmp70:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max3_u32 v10, v43, v47, v50
	v_max_u32_e32 v10, v10, v49
.Ltmp71:
	.loc	1 167 25                        ; gemm_fused_fp4.py:167:25 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_sdwa v51, v41, sext(v11) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v62, v41, sext(v11) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
.Ltmp72:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max_i32_dpp v10, v10, v10 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
.Ltmp73:
	.loc	1 167 24                        ; gemm_fused_fp4.py:167:24 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v64, 8, v51
	v_and_b32_e32 v65, 8, v52
.Ltmp74:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:152:12 @[ gemm_fused_fp4.py:243:20 ] ] ]
	v_max_i32_dpp v43, v10, v10 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
.Ltmp75:
	.loc	4 68 15                         ; common.py:68:15 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_add_u32_e32 v10, 0x200000, v43
	.loc	4 68 13 is_stmt 0               ; common.py:68:13 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_bfe_u32 v10, v10, 23, 8
	.loc	4 69 51 is_stmt 1               ; common.py:69:51 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_max_u32_e32 v11, 2, v10
	.loc	4 69 40 is_stmt 0               ; common.py:69:40 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_add_u32_e32 v11, 0xffffff7f, v11
	.loc	4 69 12                         ; common.py:69:12 @[ gemm_fused_fp4.py:153:9 @[ gemm_fused_fp4.py:243:20 ] ]
	v_cmp_ne_u32_e64 s[30:31], s52, v10
	s_nop 1
	v_cndmask_b32_e64 v66, v27, v11, s[30:31]
.Ltmp76:
	.loc	4 46 39 is_stmt 1               ; common.py:46:39 @[ gemm_fused_fp4.py:154:11 @[ gemm_fused_fp4.py:243:20 ] ]
	v_lshlrev_b32_e32 v10, 23, v66
	v_sub_u32_e32 v10, 1.0, v10
	.loc	4 46 12 is_stmt 0               ; common.py:46:12 @[ gemm_fused_fp4.py:154:11 @[ gemm_fused_fp4.py:243:20 ] ]
	v_cmp_ne_u32_e64 s[30:31], s53, v66
	s_nop 1
	v_cndmask_b32_e64 v10, v28, v10, s[30:31]
.Ltmp77:
	.loc	1 155 10 is_stmt 1              ; gemm_fused_fp4.py:155:10 @[ gemm_fused_fp4.py:243:20 ]
	v_pk_mul_f32 v[50:51], v[10:11], v[44:45] op_sel_hi:[0,1]
	v_pk_mul_f32 v[52:53], v[10:11], v[46:47] op_sel_hi:[0,1]
	v_pk_mul_f32 v[54:55], v[10:11], v[8:9] op_sel_hi:[0,1]
	v_pk_mul_f32 v[56:57], v[10:11], v[48:49] op_sel_hi:[0,1]
	.loc	1 157 26                        ; gemm_fused_fp4.py:157:26 @[ gemm_fused_fp4.py:243:20 ]
	v_ashrrev_i32_e32 v11, 23, v52
	v_ashrrev_i32_e32 v51, 23, v51
	v_ashrrev_i32_e32 v50, 23, v50
	v_ashrrev_i32_e32 v52, 23, v53
	v_ashrrev_i32_e32 v53, 23, v55
	v_ashrrev_i32_e32 v54, 23, v54
	v_ashrrev_i32_e32 v55, 23, v57
	v_ashrrev_i32_e32 v56, 23, v56
	.loc	1 157 15 is_stmt 0              ; gemm_fused_fp4.py:157:15 @[ gemm_fused_fp4.py:243:20 ]
	v_max_i32_e32 v51, 0x7f, v51
	v_max_i32_e32 v50, 0x7f, v50
	v_max_i32_e32 v52, 0x7f, v52
	v_max_i32_e32 v11, 0x7f, v11
	v_max_i32_e32 v54, 0x7f, v54
	v_max_i32_e32 v57, 0x7f, v53
	v_max_i32_e32 v56, 0x7f, v56
	v_max_i32_e32 v67, 0x7f, v55
	.loc	1 157 14                        ; gemm_fused_fp4.py:157:14 @[ gemm_fused_fp4.py:243:20 ]
	v_lshl_add_u32 v51, v51, 23, v29
	v_lshl_add_u32 v50, v50, 23, v29
	v_lshl_add_u32 v53, v52, 23, v29
	v_lshl_add_u32 v52, v11, 23, v29
	v_lshl_add_u32 v55, v57, 23, v29
	v_lshl_add_u32 v54, v54, 23, v29
	v_lshl_add_u32 v57, v67, 23, v29
	v_lshl_add_u32 v56, v56, 23, v29
	.loc	1 158 9 is_stmt 1               ; gemm_fused_fp4.py:158:9 @[ gemm_fused_fp4.py:243:20 ]
	v_pk_fma_f32 v[44:45], v[10:11], v[44:45], v[50:51] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[46:47], v[10:11], v[46:47], v[52:53] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[8:9], v[10:11], v[8:9], v[54:55] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[10:11], v[10:11], v[48:49], v[56:57] op_sel_hi:[0,1,1]
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v54, 7, v11
	.loc	1 160 24 is_stmt 0              ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_ashrrev_i32_e32 v11, 22, v11
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v50, 7, v47
	v_and_b32_e32 v55, 7, v10
	.loc	1 160 24                        ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_ashrrev_i32_e32 v47, 22, v47
	v_ashrrev_i32_e32 v10, 22, v10
	.loc	1 160 12                        ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v11, v11, v54, 5
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v51, 7, v46
	v_and_b32_e32 v52, 7, v9
	.loc	1 160 24                        ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_ashrrev_i32_e32 v46, 22, v46
	v_lshrrev_b32_e32 v9, 22, v9
	.loc	1 160 12                        ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v47, v47, v50, 5
	v_add3_u32 v10, v10, v55, 5
	.loc	1 167 16 is_stmt 1              ; gemm_fused_fp4.py:167:16 @[ gemm_fused_fp4.py:243:20 ]
	v_and_or_b32 v11, v62, 8, v11
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v48, 7, v45
	v_and_b32_e32 v53, 7, v8
	.loc	1 160 24 is_stmt 0              ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_e32 v45, 22, v45
	v_lshrrev_b32_e32 v8, 22, v8
	.loc	1 160 12                        ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v46, v46, v51, 5
	v_add3_u32 v9, v9, v52, s54
	.loc	1 167 16 is_stmt 1              ; gemm_fused_fp4.py:167:16 @[ gemm_fused_fp4.py:243:20 ]
	v_and_or_b32 v47, v58, 8, v47
	v_and_or_b32 v10, v63, 8, v10
	.loc	1 171 21                        ; gemm_fused_fp4.py:171:21 @[ gemm_fused_fp4.py:243:20 ]
	v_lshlrev_b32_e32 v11, 4, v11
	.loc	1 160 13                        ; gemm_fused_fp4.py:160:13 @[ gemm_fused_fp4.py:243:20 ]
	v_and_b32_e32 v49, 7, v44
	.loc	1 160 24 is_stmt 0              ; gemm_fused_fp4.py:160:24 @[ gemm_fused_fp4.py:243:20 ]
	v_lshrrev_b32_e32 v44, 22, v44
	.loc	1 160 12                        ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v45, v45, v48, s54
	v_add3_u32 v8, v8, v53, s54
	.loc	1 167 16 is_stmt 1              ; gemm_fused_fp4.py:167:16 @[ gemm_fused_fp4.py:243:20 ]
	v_and_or_b32 v46, v59, 8, v46
	.loc	1 168 17                        ; gemm_fused_fp4.py:168:17 @[ gemm_fused_fp4.py:243:20 ]
	v_cmp_lt_u32_e64 s[30:31], s55, v43
	.loc	1 171 21                        ; gemm_fused_fp4.py:171:21 @[ gemm_fused_fp4.py:243:20 ]
	v_lshlrev_b32_e32 v43, 4, v47
	v_lshlrev_b32_e32 v10, 4, v10
	.loc	1 171 15 is_stmt 0              ; gemm_fused_fp4.py:171:15 @[ gemm_fused_fp4.py:243:20 ]
	v_or3_b32 v9, v9, v64, v11
	.loc	1 160 12 is_stmt 1              ; gemm_fused_fp4.py:160:12 @[ gemm_fused_fp4.py:243:20 ]
	v_add3_u32 v44, v44, v49, s54
	.loc	1 171 21                        ; gemm_fused_fp4.py:171:21 @[ gemm_fused_fp4.py:243:20 ]
	v_lshlrev_b32_e32 v46, 4, v46
	.loc	1 171 15 is_stmt 0              ; gemm_fused_fp4.py:171:15 @[ gemm_fused_fp4.py:243:20 ]
	v_or3_b32 v43, v45, v60, v43
	v_or3_b32 v8, v8, v65, v10
	v_cndmask_b32_e64 v9, v9, 0, s[30:31]
	v_or3_b32 v44, v44, v61, v46
	v_cndmask_b32_e64 v11, v43, 0, s[30:31]
	v_cndmask_b32_e64 v8, v8, 0, s[30:31]
	v_lshlrev_b16_e32 v9, 8, v9
	v_cndmask_b32_e64 v10, v44, 0, s[30:31]
	v_lshlrev_b16_e32 v11, 8, v11
	v_bitop3_b16 v8, v8, v9, s52 bitop3:0xec
	v_bitop3_b16 v10, v10, v11, s52 bitop3:0xec
	v_lshlrev_b32_e32 v8, 16, v8
	v_or_b32_sdwa v10, v8, v10 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	.loc	1 172 20 is_stmt 1              ; gemm_fused_fp4.py:172:20 @[ gemm_fused_fp4.py:243:20 ]
	v_add_u16_e32 v8, 0x7f, v69
	v_cndmask_b32_e64 v8, v8, -1, s[6:7]
.Ltmp78:
	.loc	1 188 53                        ; gemm_fused_fp4.py:188:53 @[ gemm_fused_fp4.py:244:13 ]
	s_lshl_b32 s6, s35, 11
	.loc	1 188 19 is_stmt 0              ; gemm_fused_fp4.py:188:19 @[ gemm_fused_fp4.py:244:13 ]
	s_add_i32 s6, s6, s51
	v_add_u32_e32 v11, s6, v13
	v_add_u32_e32 v43, s6, v15
	v_add_u32_e32 v44, s6, v20
	v_add_u32_e32 v45, s6, v21
	.loc	1 188 11                        ; gemm_fused_fp4.py:188:11 @[ gemm_fused_fp4.py:244:13 ]
	v_cndmask_b32_e64 v11, v26, v11, s[18:19]
	s_mov_b32 s6, s46
	s_mov_b32 s7, s47
	buffer_load_dwordx4 v[46:49], v11, s[4:7], 0 offen sc0 nt
	v_cndmask_b32_e64 v11, v26, v43, s[20:21]
	buffer_load_dwordx4 v[50:53], v11, s[4:7], 0 offen sc0 nt
	v_cndmask_b32_e64 v11, v26, v44, s[22:23]
	buffer_load_dwordx4 v[60:63], v11, s[4:7], 0 offen sc0 nt
	v_cndmask_b32_e64 v11, v26, v45, s[24:25]
.Ltmp79:
	.loc	1 172 20 is_stmt 1              ; gemm_fused_fp4.py:172:20 @[ gemm_fused_fp4.py:243:20 ]
	v_add_u16_e32 v9, 0x7f, v66
.Ltmp80:
	.loc	1 188 11                        ; gemm_fused_fp4.py:188:11 @[ gemm_fused_fp4.py:244:13 ]
	buffer_load_dwordx4 v[64:67], v11, s[4:7], 0 offen sc0 nt
	.loc	1 192 12                        ; gemm_fused_fp4.py:192:12 @[ gemm_fused_fp4.py:244:13 ]
	s_barrier
	s_waitcnt vmcnt(3)
	ds_write_b128 v30, v[46:49]
	s_waitcnt vmcnt(2)
	ds_write_b128 v30, v[50:53] offset:512
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[52:55], v31
	ds_read_b128 v[56:59], v31 offset:2048
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_waitcnt vmcnt(1)
	ds_write_b128 v30, v[60:63]
	s_waitcnt vmcnt(0)
	ds_write_b128 v30, v[64:67] offset:512
	v_add_u32_e32 v11, s42, v22
	v_add_u32_e32 v43, s42, v23
	v_add_u32_e32 v60, s42, v24
	v_add_u32_e32 v61, s42, v25
.Ltmp81:
	.loc	1 205 12                        ; gemm_fused_fp4.py:205:12 @[ gemm_fused_fp4.py:245:15 ]
	v_cndmask_b32_e32 v11, v26, v11, vcc
	s_mov_b32 s42, s46
	v_cndmask_b32_e64 v43, v26, v43, s[10:11]
	v_cndmask_b32_e64 v60, v26, v60, s[12:13]
	v_cndmask_b32_e64 v61, v26, v61, s[26:27]
.Ltmp82:
	.loc	1 192 12                        ; gemm_fused_fp4.py:192:12 @[ gemm_fused_fp4.py:244:13 ]
	s_waitcnt lgkmcnt(0)
	s_barrier
.Ltmp83:
	.loc	1 205 12                        ; gemm_fused_fp4.py:205:12 @[ gemm_fused_fp4.py:245:15 ]
	buffer_load_ubyte v11, v11, s[40:43], 0 offen
.Ltmp84:
	.loc	1 192 12                        ; gemm_fused_fp4.py:192:12 @[ gemm_fused_fp4.py:244:13 ]
	ds_read_b128 v[48:51], v31
	ds_read_b128 v[44:47], v31 offset:2048
.Ltmp85:
	.loc	1 205 12                        ; gemm_fused_fp4.py:205:12 @[ gemm_fused_fp4.py:245:15 ]
	buffer_load_ubyte v43, v43, s[40:43], 0 offen
.Ltmp86:
	.loc	1 172 20                        ; gemm_fused_fp4.py:172:20 @[ gemm_fused_fp4.py:243:20 ]
	v_cndmask_b32_e64 v9, v9, -1, s[30:31]
.Ltmp87:
	.loc	1 205 12                        ; gemm_fused_fp4.py:205:12 @[ gemm_fused_fp4.py:245:15 ]
	buffer_load_ubyte v60, v60, s[40:43], 0 offen
.Ltmp88:
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	s_add_i32 s35, s35, 1
.Ltmp89:
	.loc	1 205 12                        ; gemm_fused_fp4.py:205:12 @[ gemm_fused_fp4.py:245:15 ]
	buffer_load_ubyte v61, v61, s[40:43], 0 offen
.Ltmp90:
	.loc	1 171 14                        ; gemm_fused_fp4.py:171:14 @[ gemm_fused_fp4.py:243:20 ]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_write_b32 v32, v42
	ds_write_b32 v33, v10 offset:1024
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[62:65], v34
	ds_read_b128 v[66:69], v35
	.loc	1 172 20                        ; gemm_fused_fp4.py:172:20 @[ gemm_fused_fp4.py:243:20 ]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_write_b8 v36, v8
	ds_write_b8 v36, v9 offset:8
	s_waitcnt lgkmcnt(0)
	s_barrier
.Ltmp91:
	.loc	1 246 15                        ; gemm_fused_fp4.py:246:15
	ds_read_u8 v8, v37 offset:64
	ds_read_u8 v9, v37
.Ltmp92:
	.loc	1 205 12                        ; gemm_fused_fp4.py:205:12 @[ gemm_fused_fp4.py:245:15 ]
	s_waitcnt lgkmcnt(0)
	s_barrier
.Ltmp93:
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	s_cmp_lg_u32 s35, s50
	.loc	1 246 15                        ; gemm_fused_fp4.py:246:15
	v_perm_b32 v8, v9, v8, s56
.Ltmp94:
	.loc	1 205 12                        ; gemm_fused_fp4.py:205:12 @[ gemm_fused_fp4.py:245:15 ]
	s_waitcnt vmcnt(3)
	v_cndmask_b32_e32 v11, v27, v11, vcc
	s_waitcnt vmcnt(2)
	v_cndmask_b32_e64 v43, v27, v43, s[10:11]
	s_waitcnt vmcnt(1)
	v_cndmask_b32_e64 v60, v27, v60, s[12:13]
	v_lshlrev_b16_e32 v42, 8, v60
	s_waitcnt vmcnt(0)
	v_cndmask_b32_e64 v61, v27, v61, s[26:27]
	v_lshlrev_b16_e32 v10, 8, v61
	v_or_b32_sdwa v10, v43, v10 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
	v_or_b32_e32 v11, v11, v42
	v_or_b32_sdwa v10, v10, v11 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	ds_write_b32 v38, v10
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_u16 v10, v39
	ds_read_u16 v11, v40
.Ltmp95:
	.loc	1 246 15                        ; gemm_fused_fp4.py:246:15
	s_waitcnt lgkmcnt(0)
	v_perm_b32 v9, v10, v11, s57
	s_nop 1
	v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[52:55], v[62:65], v[0:3], v9, v8 op_sel_hi:[0,0,0] cbsz:4 blgp:4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[4:7], v[48:51], v[62:65], v[4:7], v9, v8 op_sel_hi:[1,0,0] cbsz:4 blgp:4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[56:59], v[66:69], v[0:3], v9, v8 op_sel:[1,1,0] op_sel_hi:[0,0,0] cbsz:4 blgp:4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[4:7], v[44:47], v[66:69], v[4:7], v9, v8 op_sel:[1,1,0] op_sel_hi:[1,0,0] cbsz:4 blgp:4
	.loc	1 238 5                         ; gemm_fused_fp4.py:238:5
	s_cbranch_scc1 .LBB0_8
	s_branch .LBB0_10
.LBB0_9:
	.loc	1 0 5 is_stmt 0                 ; gemm_fused_fp4.py:0:5
	v_mov_b32_e32 v7, 0
	v_mov_b32_e32 v6, v7
	v_mov_b32_e32 v5, v7
	v_mov_b32_e32 v4, v7
	v_mov_b32_e32 v3, v7
	v_mov_b32_e32 v2, v7
	v_mov_b32_e32 v1, v7
	v_mov_b32_e32 v0, v7
.LBB0_10:                               ; %Flow30
	s_load_dword s18, s[0:1], 0x40
	.loc	1 253 60 is_stmt 1              ; gemm_fused_fp4.py:253:60
	v_lshrrev_b32_e32 v8, 2, v17
	.loc	1 254 25                        ; gemm_fused_fp4.py:254:25
	s_lshl_b32 s0, s16, 11
	.loc	1 253 60                        ; gemm_fused_fp4.py:253:60
	v_and_b32_e32 v8, 60, v8
.Ltmp96:
	.loc	3 86 19                         ; arrival.py:86:19 @[ gemm_fused_fp4.py:257:13 ]
	s_ashr_i32 s1, s0, 31
.Ltmp97:
	.loc	1 255 18                        ; gemm_fused_fp4.py:255:18
	v_or3_b32 v9, v19, v8, s0
	v_or3_b32 v8, s0, v19, v8
	.loc	1 255 9 is_stmt 0               ; gemm_fused_fp4.py:255:9
	s_and_b32 s5, s37, 0xffff
.Ltmp98:
	.loc	3 86 19 is_stmt 1               ; arrival.py:86:19 @[ gemm_fused_fp4.py:257:13 ]
	s_lshl_b64 s[0:1], s[0:1], 2
.Ltmp99:
	.loc	1 255 9                         ; gemm_fused_fp4.py:255:9
	s_mov_b32 s7, 0x27000
	s_mov_b32 s6, 0x7ffffffe
	s_mov_b32 s4, s36
	v_lshlrev_b32_e32 v9, 2, v9
.Ltmp100:
	.loc	3 86 19                         ; arrival.py:86:19 @[ gemm_fused_fp4.py:257:13 ]
	s_add_u32 s20, s36, s0
.Ltmp101:
	.loc	1 255 9                         ; gemm_fused_fp4.py:255:9
	buffer_store_dwordx4 v[0:3], v9, s[4:7], 0 offen
.Ltmp102:
	.loc	3 86 19                         ; arrival.py:86:19 @[ gemm_fused_fp4.py:257:13 ]
	s_addc_u32 s0, s37, s1
	.loc	3 86 5 is_stmt 0                ; arrival.py:86:5 @[ gemm_fused_fp4.py:257:13 ]
	s_and_b32 s21, s0, 0xffff
.Ltmp103:
	.loc	1 255 9 is_stmt 1               ; gemm_fused_fp4.py:255:9
	v_lshlrev_b32_e32 v0, 2, v8
	buffer_store_dwordx4 v[4:7], v0, s[4:7], 0 offen offset:256
.Ltmp104:
	.loc	3 86 5                          ; arrival.py:86:5 @[ gemm_fused_fp4.py:257:13 ]
	s_mov_b32 s22, s6
	s_mov_b32 s23, s7
	v_mov_b32_e32 v0, 0
	s_waitcnt lgkmcnt(0)
	s_barrier
	buffer_wbl2 sc1
	s_waitcnt vmcnt(0)
	buffer_atomic_add v0, v18, s[20:23], 0 offen
.Ltmp105:
	.loc	1 259 9                         ; gemm_fused_fp4.py:259:9
	s_barrier
.Ltmp106:
	.loc	3 72 11                         ; arrival.py:72:11 @[ gemm_fused_fp4.py:260:12 ]
	s_barrier
.Ltmp107:
	.loc	3 65 5                          ; arrival.py:65:5 @[ gemm_fused_fp4.py:227:9 ]
	s_and_saveexec_b64 s[0:1], s[2:3]
	s_cbranch_execz .LBB0_14
; %bb.11:
	s_mov_b64 s[12:13], exec
	v_mbcnt_lo_u32_b32 v0, s12, 0
	v_mbcnt_hi_u32_b32 v0, s13, v0
	v_cmp_eq_u32_e32 vcc, 0, v0
                                        ; implicit-def: $vgpr2_vgpr3
	s_and_saveexec_b64 s[10:11], vcc
	s_cbranch_execz .LBB0_13
; %bb.12:
	s_bcnt1_i32_b64 s4, s[12:13]
	v_mov_b32_e32 v2, s4
	v_mov_b32_e32 v3, 0
	buffer_wbl2 sc1
	s_waitcnt vmcnt(0)
	global_atomic_add_x2 v[2:3], v3, v[2:3], s[38:39] sc0
	s_waitcnt vmcnt(0)
	buffer_inv sc1
.LBB0_13:
	.loc	3 0 5 is_stmt 0                 ; arrival.py:0:5
	s_or_b64 exec, exec, s[10:11]
	.loc	3 65 5                          ; arrival.py:65:5 @[ gemm_fused_fp4.py:227:9 ]
	v_readfirstlane_b32 s11, v3
	v_readfirstlane_b32 s10, v2
	v_mov_b32_e32 v1, 0
	s_nop 0
	v_lshl_add_u64 v[2:3], s[10:11], 0, v[0:1]
.Ltmp108:
	.loc	3 72 11 is_stmt 1               ; arrival.py:72:11 @[ gemm_fused_fp4.py:260:12 ]
	ds_write_b64 v1, v[2:3]
.LBB0_14:                               ; %Flow27
	.loc	3 0 11 is_stmt 0                ; arrival.py:0:11
	s_or_b64 exec, exec, s[0:1]
	.loc	3 72 11 is_stmt 1               ; arrival.py:72:11 @[ gemm_fused_fp4.py:260:12 ]
	v_mov_b32_e32 v0, 0
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b64 v[0:1], v0
	.loc	3 73 19                         ; arrival.py:73:19 @[ gemm_fused_fp4.py:260:12 ]
	s_or_b32 s48, s48, 14
	.loc	3 73 12 is_stmt 0               ; arrival.py:73:12 @[ gemm_fused_fp4.py:260:12 ]
	s_waitcnt lgkmcnt(0)
	v_cmp_ne_u64_e32 vcc, s[48:49], v[0:1]
	s_cbranch_vccnz .LBB0_18
.Ltmp109:
; %bb.15:
	.loc	3 65 5 is_stmt 1                ; arrival.py:65:5 @[ gemm_fused_fp4.py:227:9 ]
	s_and_saveexec_b64 s[0:1], s[2:3]
	s_cbranch_execz .LBB0_17
; %bb.16:
	v_mov_b32_e32 v2, 0
	v_mov_b64_e32 v[0:1], 0
	global_atomic_swap_x2 v2, v[0:1], s[38:39]
.Ltmp110:
.LBB0_17:
	.loc	3 0 5 is_stmt 0                 ; arrival.py:0:5
	s_or_b64 exec, exec, s[0:1]
	.loc	1 229 28 is_stmt 1              ; gemm_fused_fp4.py:229:28
	v_lshrrev_b32_e32 v88, 4, v17
	.loc	1 230 28                        ; gemm_fused_fp4.py:230:28
	v_lshlrev_b32_e32 v89, 3, v16
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_mul_i32 s0, s34, 0x7800
	.loc	1 264 34 is_stmt 0              ; gemm_fused_fp4.py:264:34
	v_lshl_or_b32 v76, v88, 7, v89
	v_or_b32_e32 v0, s0, v76
	v_or_b32_e32 v90, 4, v76
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_lshlrev_b32_e32 v8, 2, v0
	s_mov_b32 s37, s5
	s_mov_b32 s38, s6
	s_mov_b32 s39, s7
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s1, s0, 0x800
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_add_lshl_u32 v9, v90, s0, 2
	buffer_load_dwordx4 v[0:3], v8, s[36:39], 0 offen sc0 nt
	buffer_load_dwordx4 v[4:7], v9, s[36:39], 0 offen sc0 nt
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v8, s1, v76
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_lshlrev_b32_e32 v16, 2, v8
	v_add_lshl_u32 v17, v90, s1, 2
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s1, s0, 0x1000
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[8:11], v16, s[36:39], 0 offen sc0 nt
	buffer_load_dwordx4 v[12:15], v17, s[36:39], 0 offen sc0 nt
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v16, s1, v76
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_lshlrev_b32_e32 v24, 2, v16
	v_add_lshl_u32 v25, v90, s1, 2
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s1, s0, 0x1800
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[16:19], v24, s[36:39], 0 offen sc0 nt
	buffer_load_dwordx4 v[20:23], v25, s[36:39], 0 offen sc0 nt
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v24, s1, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s2, s0, 0x2000
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_lshlrev_b32_e32 v24, 2, v24
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v28, s2, v76
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[24:27], v24, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v28, 2, v28
	buffer_load_dwordx4 v[28:31], v28, s[36:39], 0 offen sc0 nt
	v_add_lshl_u32 v32, v90, s1, 2
	buffer_load_dwordx4 v[32:35], v32, s[36:39], 0 offen sc0 nt
	v_add_lshl_u32 v36, v90, s2, 2
	buffer_load_dwordx4 v[36:39], v36, s[36:39], 0 offen sc0 nt
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s1, s0, 0x2800
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v40, s1, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s2, s0, 0x3000
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_lshlrev_b32_e32 v40, 2, v40
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v44, s2, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s3, s0, 0x3800
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[40:43], v40, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v44, 2, v44
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v48, s3, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s4, s0, 0x4000
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[44:47], v44, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v48, 2, v48
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v52, s4, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s5, s0, 0x4800
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[48:51], v48, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v52, 2, v52
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v56, s5, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s6, s0, 0x5000
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[52:55], v52, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v56, 2, v56
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v60, s6, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s7, s0, 0x5800
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[56:59], v56, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v60, 2, v60
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v64, s7, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s10, s0, 0x6000
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[60:63], v60, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v64, 2, v64
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v68, s10, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_add_i32 s11, s0, 0x6800
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[64:67], v64, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v68, 2, v68
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v72, s11, v76
	.loc	1 264 43                        ; gemm_fused_fp4.py:264:43
	s_addk_i32 s0, 0x7000
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[68:71], v68, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v72, 2, v72
	.loc	1 264 34                        ; gemm_fused_fp4.py:264:34
	v_or_b32_e32 v76, s0, v76
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[72:75], v72, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v76, 2, v76
	buffer_load_dwordx4 v[76:79], v76, s[36:39], 0 offen sc0 nt
	.loc	1 265 13 is_stmt 1              ; gemm_fused_fp4.py:265:13
	s_and_b32 s9, s9, 0xffff
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(19)
	v_pk_add_f32 v[0:1], v[0:1], 0 op_sel_hi:[1,0]
	s_waitcnt vmcnt(18)
	v_pk_add_f32 v[4:5], v[4:5], 0 op_sel_hi:[1,0]
	v_pk_add_f32 v[2:3], v[2:3], 0 op_sel_hi:[1,0]
	s_waitcnt vmcnt(17)
	v_pk_add_f32 v[0:1], v[0:1], v[8:9]
	s_waitcnt vmcnt(16)
	v_pk_add_f32 v[4:5], v[4:5], v[12:13]
	v_pk_add_f32 v[2:3], v[2:3], v[10:11]
	.loc	1 264 26 is_stmt 0              ; gemm_fused_fp4.py:264:26
	v_add_lshl_u32 v8, v90, s3, 2
	buffer_load_dwordx4 v[8:11], v8, s[36:39], 0 offen sc0 nt
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(16)
	v_pk_add_f32 v[0:1], v[0:1], v[16:17]
	v_pk_add_f32 v[2:3], v[2:3], v[18:19]
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_add_lshl_u32 v12, v90, s4, 2
	v_add_lshl_u32 v16, v90, s5, 2
	buffer_load_dwordx4 v[16:19], v16, s[36:39], 0 offen sc0 nt
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(15)
	v_pk_add_f32 v[0:1], v[0:1], v[24:25]
	v_pk_add_f32 v[2:3], v[2:3], v[26:27]
	s_waitcnt vmcnt(14)
	v_pk_add_f32 v[80:81], v[0:1], v[28:29]
	v_pk_add_f32 v[0:1], v[4:5], v[20:21]
	v_pk_add_f32 v[82:83], v[2:3], v[30:31]
	s_waitcnt vmcnt(13)
	v_pk_add_f32 v[0:1], v[0:1], v[32:33]
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_add_lshl_u32 v4, v90, s2, 2
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(12)
	v_pk_add_f32 v[84:85], v[0:1], v[36:37]
	v_pk_add_f32 v[0:1], v[6:7], 0 op_sel_hi:[1,0]
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[4:7], v4, s[36:39], 0 offen sc0 nt
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[0:1], v[0:1], v[14:15]
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[12:15], v12, s[36:39], 0 offen sc0 nt
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[0:1], v[0:1], v[22:23]
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_add_lshl_u32 v20, v90, s6, 2
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[0:1], v[0:1], v[34:35]
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	buffer_load_dwordx4 v[20:23], v20, s[36:39], 0 offen sc0 nt
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[86:87], v[0:1], v[38:39]
	.loc	1 264 26                        ; gemm_fused_fp4.py:264:26
	v_add_lshl_u32 v0, v90, s1, 2
	buffer_load_dwordx4 v[0:3], v0, s[36:39], 0 offen sc0 nt
	v_add_lshl_u32 v24, v90, s7, 2
	buffer_load_dwordx4 v[24:27], v24, s[36:39], 0 offen sc0 nt
	v_add_lshl_u32 v28, v90, s10, 2
	buffer_load_dwordx4 v[28:31], v28, s[36:39], 0 offen sc0 nt
	v_add_lshl_u32 v32, v90, s11, 2
	buffer_load_dwordx4 v[32:35], v32, s[36:39], 0 offen sc0 nt
	v_add_lshl_u32 v36, v90, s0, 2
	buffer_load_dwordx4 v[36:39], v36, s[36:39], 0 offen sc0 nt
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(19)
	v_pk_add_f32 v[40:41], v[80:81], v[40:41]
.Ltmp111:
	.loc	4 136 11 is_stmt 1              ; common.py:136:11 @[ gemm_fused_fp4.py:265:37 ]
	s_movk_i32 s6, 0x7fff
.Ltmp112:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(18)
	v_pk_add_f32 v[40:41], v[40:41], v[44:45]
.Ltmp113:
	.loc	4 136 25                        ; common.py:136:25 @[ gemm_fused_fp4.py:265:37 ]
	v_mov_b32_e32 v44, 1
.Ltmp114:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(17)
	v_pk_add_f32 v[40:41], v[40:41], v[48:49]
.Ltmp115:
	.loc	4 137 9                         ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_mov_b32_e32 v49, 0x7fc0
.Ltmp116:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(16)
	v_pk_add_f32 v[40:41], v[40:41], v[52:53]
	.loc	1 230 10                        ; gemm_fused_fp4.py:230:10
	v_or_b32_e32 v52, s33, v89
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(15)
	v_pk_add_f32 v[40:41], v[40:41], v[56:57]
	.loc	1 233 15                        ; gemm_fused_fp4.py:233:15
	v_cmp_gt_i32_e32 vcc, s15, v52
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(14)
	v_pk_add_f32 v[40:41], v[40:41], v[60:61]
	.loc	1 265 13                        ; gemm_fused_fp4.py:265:13
	s_mov_b32 s11, 0x27000
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(13)
	v_pk_add_f32 v[40:41], v[40:41], v[64:65]
	.loc	1 265 13                        ; gemm_fused_fp4.py:265:13
	s_mov_b32 s10, 0x7ffffffe
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	s_waitcnt vmcnt(12)
	v_pk_add_f32 v[40:41], v[40:41], v[68:69]
	s_waitcnt vmcnt(4)
	v_pk_add_f32 v[0:1], v[84:85], v[0:1]
	v_pk_add_f32 v[40:41], v[40:41], v[72:73]
	v_pk_add_f32 v[0:1], v[0:1], v[4:5]
	v_pk_add_f32 v[40:41], v[40:41], v[76:77]
	v_pk_add_f32 v[0:1], v[0:1], v[8:9]
.Ltmp117:
	.loc	4 136 25                        ; common.py:136:25 @[ gemm_fused_fp4.py:265:37 ]
	v_and_b32_sdwa v48, v40, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	v_and_b32_sdwa v45, v41, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	4 136 11 is_stmt 0              ; common.py:136:11 @[ gemm_fused_fp4.py:265:37 ]
	v_add3_u32 v48, v40, v48, s6
	.loc	4 137 9 is_stmt 1               ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cmp_o_f32_e64 s[2:3], v40, v40
.Ltmp118:
	.loc	1 229 10                        ; gemm_fused_fp4.py:229:10
	v_or_b32_e32 v40, s17, v88
.Ltmp119:
	.loc	4 136 11                        ; common.py:136:11 @[ gemm_fused_fp4.py:265:37 ]
	v_add3_u32 v45, v41, v45, s6
	.loc	4 137 9                         ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cmp_o_f32_e64 s[4:5], v41, v41
.Ltmp120:
	.loc	1 249 15                        ; gemm_fused_fp4.py:249:15
	v_cmp_gt_i32_e64 s[0:1], s14, v40
	.loc	1 265 22                        ; gemm_fused_fp4.py:265:22
	v_mul_lo_u32 v53, v40, s18
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[40:41], v[82:83], v[42:43]
	v_pk_add_f32 v[0:1], v[0:1], v[12:13]
	v_pk_add_f32 v[40:41], v[40:41], v[46:47]
	v_pk_add_f32 v[0:1], v[0:1], v[16:17]
	v_pk_add_f32 v[40:41], v[40:41], v[50:51]
	v_pk_add_f32 v[0:1], v[0:1], v[20:21]
	v_pk_add_f32 v[40:41], v[40:41], v[54:55]
	s_waitcnt vmcnt(3)
	v_pk_add_f32 v[0:1], v[0:1], v[24:25]
	v_pk_add_f32 v[40:41], v[40:41], v[58:59]
	s_waitcnt vmcnt(2)
	v_pk_add_f32 v[0:1], v[0:1], v[28:29]
	v_pk_add_f32 v[40:41], v[40:41], v[62:63]
	s_waitcnt vmcnt(1)
	v_pk_add_f32 v[0:1], v[0:1], v[32:33]
	v_pk_add_f32 v[40:41], v[40:41], v[66:67]
.Ltmp121:
	.loc	4 136 10                        ; common.py:136:10 @[ gemm_fused_fp4.py:265:37 ]
	v_lshrrev_b32_e32 v48, 16, v48
.Ltmp122:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[40:41], v[40:41], v[70:71]
	s_waitcnt vmcnt(0)
	v_pk_add_f32 v[0:1], v[0:1], v[36:37]
	v_pk_add_f32 v[40:41], v[40:41], v[74:75]
.Ltmp123:
	.loc	4 137 9                         ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cndmask_b32_e64 v48, v49, v48, s[2:3]
.Ltmp124:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[40:41], v[40:41], v[78:79]
.Ltmp125:
	.loc	4 136 25                        ; common.py:136:25 @[ gemm_fused_fp4.py:265:37 ]
	v_and_b32_sdwa v5, v0, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	v_and_b32_sdwa v43, v40, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	v_and_b32_sdwa v42, v41, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	4 136 11 is_stmt 0              ; common.py:136:11 @[ gemm_fused_fp4.py:265:37 ]
	v_add3_u32 v43, v40, v43, s6
	v_add3_u32 v42, v41, v42, s6
	.loc	4 136 10                        ; common.py:136:10 @[ gemm_fused_fp4.py:265:37 ]
	v_lshrrev_b32_e32 v43, 16, v43
	.loc	4 137 9 is_stmt 1               ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cmp_o_f32_e64 s[2:3], v40, v40
	.loc	4 136 10                        ; common.py:136:10 @[ gemm_fused_fp4.py:265:37 ]
	v_lshrrev_b32_e32 v42, 16, v42
	.loc	4 136 11 is_stmt 0              ; common.py:136:11 @[ gemm_fused_fp4.py:265:37 ]
	v_add3_u32 v5, v0, v5, s6
	.loc	4 137 9 is_stmt 1               ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cndmask_b32_e64 v40, v49, v43, s[2:3]
	v_cmp_o_f32_e64 s[2:3], v41, v41
	.loc	4 136 25                        ; common.py:136:25 @[ gemm_fused_fp4.py:265:37 ]
	v_and_b32_sdwa v4, v1, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	4 136 10 is_stmt 0              ; common.py:136:10 @[ gemm_fused_fp4.py:265:37 ]
	v_lshrrev_b32_e32 v5, 16, v5
	.loc	4 137 9 is_stmt 1               ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cndmask_b32_e64 v41, v49, v42, s[2:3]
	v_cmp_o_f32_e64 s[2:3], v0, v0
	.loc	4 136 11                        ; common.py:136:11 @[ gemm_fused_fp4.py:265:37 ]
	v_add3_u32 v4, v1, v4, s6
	.loc	4 136 10 is_stmt 0              ; common.py:136:10 @[ gemm_fused_fp4.py:265:37 ]
	v_lshrrev_b32_e32 v4, 16, v4
	.loc	4 137 9 is_stmt 1               ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cndmask_b32_e64 v5, v49, v5, s[2:3]
	v_cmp_o_f32_e64 s[2:3], v1, v1
.Ltmp126:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[0:1], v[86:87], v[2:3]
.Ltmp127:
	.loc	4 136 10                        ; common.py:136:10 @[ gemm_fused_fp4.py:265:37 ]
	v_lshrrev_b32_e32 v45, 16, v45
.Ltmp128:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[0:1], v[0:1], v[6:7]
.Ltmp129:
	.loc	4 137 9                         ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cndmask_b32_e64 v4, v49, v4, s[2:3]
.Ltmp130:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[0:1], v[0:1], v[10:11]
.Ltmp131:
	.loc	4 137 9                         ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cndmask_b32_e64 v45, v49, v45, s[4:5]
.Ltmp132:
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[0:1], v[0:1], v[14:15]
	.loc	1 249 14                        ; gemm_fused_fp4.py:249:14
	s_and_b64 vcc, vcc, s[0:1]
	.loc	1 264 17                        ; gemm_fused_fp4.py:264:17
	v_pk_add_f32 v[0:1], v[0:1], v[18:19]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[22:23]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[26:27]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[30:31]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[34:35]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[38:39]
.Ltmp133:
	.loc	4 136 25                        ; common.py:136:25 @[ gemm_fused_fp4.py:265:37 ]
	s_nop 0
	v_and_b32_sdwa v3, v0, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	v_and_b32_sdwa v2, v1, v44 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	4 136 11 is_stmt 0              ; common.py:136:11 @[ gemm_fused_fp4.py:265:37 ]
	v_add3_u32 v3, v0, v3, s6
	v_add3_u32 v2, v1, v2, s6
	.loc	4 136 10                        ; common.py:136:10 @[ gemm_fused_fp4.py:265:37 ]
	v_lshrrev_b32_e32 v3, 16, v3
	.loc	4 137 9 is_stmt 1               ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	v_cmp_o_f32_e64 s[2:3], v0, v0
	.loc	4 136 10                        ; common.py:136:10 @[ gemm_fused_fp4.py:265:37 ]
	v_lshrrev_b32_e32 v2, 16, v2
	.loc	4 137 9                         ; common.py:137:9 @[ gemm_fused_fp4.py:265:37 ]
	s_nop 0
	v_cndmask_b32_e64 v0, v49, v3, s[2:3]
	v_cmp_o_f32_e64 s[2:3], v1, v1
	s_nop 1
	v_cndmask_b32_e64 v1, v49, v2, s[2:3]
.Ltmp134:
	.loc	1 265 13                        ; gemm_fused_fp4.py:265:13
	s_mov_b32 s2, 0x5040100
	v_perm_b32 v2, v4, v5, s2
	v_add_lshl_u32 v4, v52, v53, 1
	v_bfrev_b32_e32 v5, 1
	v_perm_b32 v3, v1, v0, s2
	v_perm_b32 v1, v41, v40, s2
	v_perm_b32 v0, v45, v48, s2
	v_cndmask_b32_e32 v4, v5, v4, vcc
	buffer_store_dwordx4 v[0:3], v4, s[8:11], 0 offen
.LBB0_18:
	.loc	1 210 1                         ; gemm_fused_fp4.py:210:1
	s_endpgm
.Ltmp135:
.Lfunc_end0:
	.size	_fp4_gemm_kernel, .Lfunc_end0-_fp4_gemm_kernel
	.cfi_endproc
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel _fp4_gemm_kernel
		.amdhsa_group_segment_fixed_size 0
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 96
		.amdhsa_user_sgpr_count 16
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_kernarg_preload_length 14
		.amdhsa_user_sgpr_kernarg_preload_offset 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 91
		.amdhsa_next_free_sgpr 58
		.amdhsa_accum_offset 92
		.amdhsa_reserve_vcc 1
		.amdhsa_reserve_xnack_mask 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
		.amdhsa_exception_fp_ieee_invalid_op 0
		.amdhsa_exception_fp_denorm_src 0
		.amdhsa_exception_fp_ieee_div_zero 0
		.amdhsa_exception_fp_ieee_overflow 0
		.amdhsa_exception_fp_ieee_underflow 0
		.amdhsa_exception_fp_ieee_inexact 0
		.amdhsa_exception_int_div_zero 0
	.end_amdhsa_kernel
	.text
                                        ; -- End function
	.set .L_fp4_gemm_kernel.num_vgpr, 91
	.set .L_fp4_gemm_kernel.num_agpr, 0
	.set .L_fp4_gemm_kernel.numbered_sgpr, 58
	.set .L_fp4_gemm_kernel.num_named_barrier, 0
	.set .L_fp4_gemm_kernel.private_seg_size, 0
	.set .L_fp4_gemm_kernel.uses_vcc, 1
	.set .L_fp4_gemm_kernel.uses_flat_scratch, 0
	.set .L_fp4_gemm_kernel.has_dyn_sized_stack, 0
	.set .L_fp4_gemm_kernel.has_recursion, 0
	.set .L_fp4_gemm_kernel.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 6028
; TotalNumSgprs: 64
; NumVgprs: 91
; NumAgprs: 0
; TotalNumVgprs: 91
; ScratchSize: 0
; MemoryBound: 0
; FloatMode: 240
; IeeeMode: 1
; LDSByteSize: 0 bytes/workgroup (compile time only)
; SGPRBlocks: 7
; VGPRBlocks: 11
; NumSGPRsForWavesPerEU: 64
; NumVGPRsForWavesPerEU: 91
; AccumOffset: 92
; Occupancy: 5
; WaveLimiterHint : 0
; COMPUTE_PGM_RSRC2:SCRATCH_EN: 0
; COMPUTE_PGM_RSRC2:USER_SGPR: 16
; COMPUTE_PGM_RSRC2:TRAP_HANDLER: 0
; COMPUTE_PGM_RSRC2:TGID_X_EN: 1
; COMPUTE_PGM_RSRC2:TGID_Y_EN: 0
; COMPUTE_PGM_RSRC2:TGID_Z_EN: 0
; COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT: 0
; COMPUTE_PGM_RSRC3_GFX90A:ACCUM_OFFSET: 22
; COMPUTE_PGM_RSRC3_GFX90A:TG_SPLIT: 0
	.text
	.p2alignl 6, 3212836864
	.fill 256, 4, 3212836864
	.section	.AMDGPU.gpr_maximums,"",@progbits
	.set amdgpu.max_num_vgpr, 0
	.set amdgpu.max_num_agpr, 0
	.set amdgpu.max_num_sgpr, 0
	.set amdgpu.max_num_named_barrier, 0
	.text
	.section	.debug_abbrev,"",@progbits
	.byte	1                               ; Abbreviation Code
	.byte	17                              ; DW_TAG_compile_unit
	.byte	1                               ; DW_CHILDREN_yes
	.byte	37                              ; DW_AT_producer
	.byte	14                              ; DW_FORM_strp
	.byte	19                              ; DW_AT_language
	.byte	5                               ; DW_FORM_data2
	.byte	3                               ; DW_AT_name
	.byte	14                              ; DW_FORM_strp
	.byte	16                              ; DW_AT_stmt_list
	.byte	23                              ; DW_FORM_sec_offset
	.byte	27                              ; DW_AT_comp_dir
	.byte	14                              ; DW_FORM_strp
	.ascii	"\341\177"                      ; DW_AT_APPLE_optimized
	.byte	25                              ; DW_FORM_flag_present
	.byte	17                              ; DW_AT_low_pc
	.byte	1                               ; DW_FORM_addr
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	2                               ; Abbreviation Code
	.byte	46                              ; DW_TAG_subprogram
	.byte	0                               ; DW_CHILDREN_no
	.byte	3                               ; DW_AT_name
	.byte	14                              ; DW_FORM_strp
	.byte	32                              ; DW_AT_inline
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	3                               ; Abbreviation Code
	.byte	46                              ; DW_TAG_subprogram
	.byte	1                               ; DW_CHILDREN_yes
	.byte	17                              ; DW_AT_low_pc
	.byte	1                               ; DW_FORM_addr
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	4                               ; Abbreviation Code
	.byte	29                              ; DW_TAG_inlined_subroutine
	.byte	0                               ; DW_CHILDREN_no
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	17                              ; DW_AT_low_pc
	.byte	1                               ; DW_FORM_addr
	.byte	18                              ; DW_AT_high_pc
	.byte	6                               ; DW_FORM_data4
	.byte	88                              ; DW_AT_call_file
	.byte	11                              ; DW_FORM_data1
	.byte	89                              ; DW_AT_call_line
	.byte	11                              ; DW_FORM_data1
	.byte	87                              ; DW_AT_call_column
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	5                               ; Abbreviation Code
	.byte	29                              ; DW_TAG_inlined_subroutine
	.byte	0                               ; DW_CHILDREN_no
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	85                              ; DW_AT_ranges
	.byte	23                              ; DW_FORM_sec_offset
	.byte	88                              ; DW_AT_call_file
	.byte	11                              ; DW_FORM_data1
	.byte	89                              ; DW_AT_call_line
	.byte	5                               ; DW_FORM_data2
	.byte	87                              ; DW_AT_call_column
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	6                               ; Abbreviation Code
	.byte	29                              ; DW_TAG_inlined_subroutine
	.byte	0                               ; DW_CHILDREN_no
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	85                              ; DW_AT_ranges
	.byte	23                              ; DW_FORM_sec_offset
	.byte	88                              ; DW_AT_call_file
	.byte	11                              ; DW_FORM_data1
	.byte	89                              ; DW_AT_call_line
	.byte	11                              ; DW_FORM_data1
	.byte	87                              ; DW_AT_call_column
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	7                               ; Abbreviation Code
	.byte	29                              ; DW_TAG_inlined_subroutine
	.byte	1                               ; DW_CHILDREN_yes
	.byte	49                              ; DW_AT_abstract_origin
	.byte	19                              ; DW_FORM_ref4
	.byte	85                              ; DW_AT_ranges
	.byte	23                              ; DW_FORM_sec_offset
	.byte	88                              ; DW_AT_call_file
	.byte	11                              ; DW_FORM_data1
	.byte	89                              ; DW_AT_call_line
	.byte	11                              ; DW_FORM_data1
	.byte	87                              ; DW_AT_call_column
	.byte	11                              ; DW_FORM_data1
	.byte	0                               ; EOM(1)
	.byte	0                               ; EOM(2)
	.byte	0                               ; EOM(3)
	.section	.debug_info,"",@progbits
.Lcu_begin0:
	.long	.Ldebug_info_end0-.Ldebug_info_start0 ; Length of Unit
.Ldebug_info_start0:
	.short	4                               ; DWARF version number
	.long	.debug_abbrev                   ; Offset Into Abbrev. Section
	.byte	8                               ; Address Size (in bytes)
	.byte	1                               ; Abbrev [1] 0xb:0x101 DW_TAG_compile_unit
	.long	.Linfo_string0                  ; DW_AT_producer
	.short	2                               ; DW_AT_language
	.long	.Linfo_string1                  ; DW_AT_name
	.long	.Lline_table_start0             ; DW_AT_stmt_list
	.long	.Linfo_string2                  ; DW_AT_comp_dir
                                        ; DW_AT_APPLE_optimized
	.quad	.Lfunc_begin0                   ; DW_AT_low_pc
	.long	.Lfunc_end0-.Lfunc_begin0       ; DW_AT_high_pc
	.byte	2                               ; Abbrev [2] 0x2a:0x6 DW_TAG_subprogram
	.long	.Linfo_string3                  ; DW_AT_name
	.byte	1                               ; DW_AT_inline
	.byte	3                               ; Abbrev [3] 0x30:0xdb DW_TAG_subprogram
	.quad	.Lfunc_begin0                   ; DW_AT_low_pc
	.long	.Lfunc_end0-.Lfunc_begin0       ; DW_AT_high_pc
	.long	42                              ; DW_AT_abstract_origin
	.byte	4                               ; Abbrev [4] 0x41:0x14 DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.quad	.Ltmp1                          ; DW_AT_low_pc
	.long	.Ltmp2-.Ltmp1                   ; DW_AT_high_pc
	.byte	1                               ; DW_AT_call_file
	.byte	218                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0x55:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges0                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	260                             ; DW_AT_call_line
	.byte	12                              ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0x62:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges1                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	227                             ; DW_AT_call_line
	.byte	9                               ; DW_AT_call_column
	.byte	4                               ; Abbrev [4] 0x6e:0x14 DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.quad	.Ltmp9                          ; DW_AT_low_pc
	.long	.Ltmp10-.Ltmp9                  ; DW_AT_high_pc
	.byte	1                               ; DW_AT_call_file
	.byte	223                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0x82:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges2                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	232                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0x8e:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges3                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	244                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0x9a:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges4                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	245                             ; DW_AT_call_line
	.byte	15                              ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0xa6:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges5                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	243                             ; DW_AT_call_line
	.byte	34                              ; DW_AT_call_column
	.byte	7                               ; Abbrev [7] 0xb2:0x3e DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges6                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	243                             ; DW_AT_call_line
	.byte	20                              ; DW_AT_call_column
	.byte	7                               ; Abbrev [7] 0xbe:0x19 DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges7                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	152                             ; DW_AT_call_line
	.byte	12                              ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0xca:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges7                 ; DW_AT_ranges
	.byte	2                               ; DW_AT_call_file
	.byte	216                             ; DW_AT_call_line
	.byte	16                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	6                               ; Abbrev [6] 0xd7:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges8                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	153                             ; DW_AT_call_line
	.byte	9                               ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0xe3:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges9                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	154                             ; DW_AT_call_line
	.byte	11                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	5                               ; Abbrev [5] 0xf0:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges10                ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	257                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0xfd:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges11                ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	265                             ; DW_AT_call_line
	.byte	37                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
.Ldebug_info_end0:
	.section	.debug_ranges,"",@progbits
.Ldebug_ranges0:
	.quad	.Ltmp3-.Lfunc_begin0
	.quad	.Ltmp4-.Lfunc_begin0
	.quad	.Ltmp106-.Lfunc_begin0
	.quad	.Ltmp107-.Lfunc_begin0
	.quad	.Ltmp108-.Lfunc_begin0
	.quad	.Ltmp109-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges1:
	.quad	.Ltmp5-.Lfunc_begin0
	.quad	.Ltmp6-.Lfunc_begin0
	.quad	.Ltmp7-.Lfunc_begin0
	.quad	.Ltmp8-.Lfunc_begin0
	.quad	.Ltmp107-.Lfunc_begin0
	.quad	.Ltmp108-.Lfunc_begin0
	.quad	.Ltmp109-.Lfunc_begin0
	.quad	.Ltmp110-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges2:
	.quad	.Ltmp11-.Lfunc_begin0
	.quad	.Ltmp12-.Lfunc_begin0
	.quad	.Ltmp13-.Lfunc_begin0
	.quad	.Ltmp14-.Lfunc_begin0
	.quad	.Ltmp16-.Lfunc_begin0
	.quad	.Ltmp17-.Lfunc_begin0
	.quad	.Ltmp19-.Lfunc_begin0
	.quad	.Ltmp20-.Lfunc_begin0
	.quad	.Ltmp21-.Lfunc_begin0
	.quad	.Ltmp22-.Lfunc_begin0
	.quad	.Ltmp23-.Lfunc_begin0
	.quad	.Ltmp24-.Lfunc_begin0
	.quad	.Ltmp26-.Lfunc_begin0
	.quad	.Ltmp27-.Lfunc_begin0
	.quad	.Ltmp29-.Lfunc_begin0
	.quad	.Ltmp30-.Lfunc_begin0
	.quad	.Ltmp31-.Lfunc_begin0
	.quad	.Ltmp32-.Lfunc_begin0
	.quad	.Ltmp37-.Lfunc_begin0
	.quad	.Ltmp38-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges3:
	.quad	.Ltmp15-.Lfunc_begin0
	.quad	.Ltmp16-.Lfunc_begin0
	.quad	.Ltmp18-.Lfunc_begin0
	.quad	.Ltmp19-.Lfunc_begin0
	.quad	.Ltmp20-.Lfunc_begin0
	.quad	.Ltmp21-.Lfunc_begin0
	.quad	.Ltmp24-.Lfunc_begin0
	.quad	.Ltmp25-.Lfunc_begin0
	.quad	.Ltmp27-.Lfunc_begin0
	.quad	.Ltmp28-.Lfunc_begin0
	.quad	.Ltmp33-.Lfunc_begin0
	.quad	.Ltmp34-.Lfunc_begin0
	.quad	.Ltmp35-.Lfunc_begin0
	.quad	.Ltmp36-.Lfunc_begin0
	.quad	.Ltmp39-.Lfunc_begin0
	.quad	.Ltmp40-.Lfunc_begin0
	.quad	.Ltmp78-.Lfunc_begin0
	.quad	.Ltmp79-.Lfunc_begin0
	.quad	.Ltmp80-.Lfunc_begin0
	.quad	.Ltmp81-.Lfunc_begin0
	.quad	.Ltmp82-.Lfunc_begin0
	.quad	.Ltmp83-.Lfunc_begin0
	.quad	.Ltmp84-.Lfunc_begin0
	.quad	.Ltmp85-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges4:
	.quad	.Ltmp41-.Lfunc_begin0
	.quad	.Ltmp42-.Lfunc_begin0
	.quad	.Ltmp81-.Lfunc_begin0
	.quad	.Ltmp82-.Lfunc_begin0
	.quad	.Ltmp83-.Lfunc_begin0
	.quad	.Ltmp84-.Lfunc_begin0
	.quad	.Ltmp85-.Lfunc_begin0
	.quad	.Ltmp86-.Lfunc_begin0
	.quad	.Ltmp87-.Lfunc_begin0
	.quad	.Ltmp88-.Lfunc_begin0
	.quad	.Ltmp89-.Lfunc_begin0
	.quad	.Ltmp90-.Lfunc_begin0
	.quad	.Ltmp92-.Lfunc_begin0
	.quad	.Ltmp93-.Lfunc_begin0
	.quad	.Ltmp94-.Lfunc_begin0
	.quad	.Ltmp95-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges5:
	.quad	.Ltmp42-.Lfunc_begin0
	.quad	.Ltmp43-.Lfunc_begin0
	.quad	.Ltmp44-.Lfunc_begin0
	.quad	.Ltmp45-.Lfunc_begin0
	.quad	.Ltmp48-.Lfunc_begin0
	.quad	.Ltmp49-.Lfunc_begin0
	.quad	.Ltmp59-.Lfunc_begin0
	.quad	.Ltmp60-.Lfunc_begin0
	.quad	.Ltmp61-.Lfunc_begin0
	.quad	.Ltmp62-.Lfunc_begin0
	.quad	.Ltmp63-.Lfunc_begin0
	.quad	.Ltmp64-.Lfunc_begin0
	.quad	.Ltmp67-.Lfunc_begin0
	.quad	.Ltmp68-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges6:
	.quad	.Ltmp43-.Lfunc_begin0
	.quad	.Ltmp44-.Lfunc_begin0
	.quad	.Ltmp45-.Lfunc_begin0
	.quad	.Ltmp48-.Lfunc_begin0
	.quad	.Ltmp49-.Lfunc_begin0
	.quad	.Ltmp59-.Lfunc_begin0
	.quad	.Ltmp60-.Lfunc_begin0
	.quad	.Ltmp61-.Lfunc_begin0
	.quad	.Ltmp62-.Lfunc_begin0
	.quad	.Ltmp63-.Lfunc_begin0
	.quad	.Ltmp64-.Lfunc_begin0
	.quad	.Ltmp67-.Lfunc_begin0
	.quad	.Ltmp68-.Lfunc_begin0
	.quad	.Ltmp78-.Lfunc_begin0
	.quad	.Ltmp79-.Lfunc_begin0
	.quad	.Ltmp80-.Lfunc_begin0
	.quad	.Ltmp86-.Lfunc_begin0
	.quad	.Ltmp87-.Lfunc_begin0
	.quad	.Ltmp90-.Lfunc_begin0
	.quad	.Ltmp91-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges7:
	.quad	.Ltmp46-.Lfunc_begin0
	.quad	.Ltmp47-.Lfunc_begin0
	.quad	.Ltmp49-.Lfunc_begin0
	.quad	.Ltmp50-.Lfunc_begin0
	.quad	.Ltmp51-.Lfunc_begin0
	.quad	.Ltmp52-.Lfunc_begin0
	.quad	.Ltmp53-.Lfunc_begin0
	.quad	.Ltmp54-.Lfunc_begin0
	.quad	.Ltmp55-.Lfunc_begin0
	.quad	.Ltmp56-.Lfunc_begin0
	.quad	.Ltmp65-.Lfunc_begin0
	.quad	.Ltmp66-.Lfunc_begin0
	.quad	.Ltmp68-.Lfunc_begin0
	.quad	.Ltmp69-.Lfunc_begin0
	.quad	.Ltmp70-.Lfunc_begin0
	.quad	.Ltmp71-.Lfunc_begin0
	.quad	.Ltmp72-.Lfunc_begin0
	.quad	.Ltmp73-.Lfunc_begin0
	.quad	.Ltmp74-.Lfunc_begin0
	.quad	.Ltmp75-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges8:
	.quad	.Ltmp56-.Lfunc_begin0
	.quad	.Ltmp57-.Lfunc_begin0
	.quad	.Ltmp75-.Lfunc_begin0
	.quad	.Ltmp76-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges9:
	.quad	.Ltmp57-.Lfunc_begin0
	.quad	.Ltmp58-.Lfunc_begin0
	.quad	.Ltmp76-.Lfunc_begin0
	.quad	.Ltmp77-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges10:
	.quad	.Ltmp96-.Lfunc_begin0
	.quad	.Ltmp97-.Lfunc_begin0
	.quad	.Ltmp98-.Lfunc_begin0
	.quad	.Ltmp99-.Lfunc_begin0
	.quad	.Ltmp100-.Lfunc_begin0
	.quad	.Ltmp101-.Lfunc_begin0
	.quad	.Ltmp102-.Lfunc_begin0
	.quad	.Ltmp103-.Lfunc_begin0
	.quad	.Ltmp104-.Lfunc_begin0
	.quad	.Ltmp105-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges11:
	.quad	.Ltmp111-.Lfunc_begin0
	.quad	.Ltmp112-.Lfunc_begin0
	.quad	.Ltmp113-.Lfunc_begin0
	.quad	.Ltmp114-.Lfunc_begin0
	.quad	.Ltmp115-.Lfunc_begin0
	.quad	.Ltmp116-.Lfunc_begin0
	.quad	.Ltmp117-.Lfunc_begin0
	.quad	.Ltmp118-.Lfunc_begin0
	.quad	.Ltmp119-.Lfunc_begin0
	.quad	.Ltmp120-.Lfunc_begin0
	.quad	.Ltmp121-.Lfunc_begin0
	.quad	.Ltmp122-.Lfunc_begin0
	.quad	.Ltmp123-.Lfunc_begin0
	.quad	.Ltmp124-.Lfunc_begin0
	.quad	.Ltmp125-.Lfunc_begin0
	.quad	.Ltmp126-.Lfunc_begin0
	.quad	.Ltmp127-.Lfunc_begin0
	.quad	.Ltmp128-.Lfunc_begin0
	.quad	.Ltmp129-.Lfunc_begin0
	.quad	.Ltmp130-.Lfunc_begin0
	.quad	.Ltmp131-.Lfunc_begin0
	.quad	.Ltmp132-.Lfunc_begin0
	.quad	.Ltmp133-.Lfunc_begin0
	.quad	.Ltmp134-.Lfunc_begin0
	.quad	0
	.quad	0
	.section	.debug_str,"MS",@progbits,1
.Linfo_string0:
	.asciz	"triton"                        ; string offset=0 ; triton
.Linfo_string1:
	.asciz	"gemm_fused_fp4.py"             ; string offset=7 ; gemm_fused_fp4.py
.Linfo_string2:
	.asciz	"mxlib/kernels"      ; string offset=25 ; mxlib/kernels
.Linfo_string3:
	.asciz	"_fp4_gemm_kernel"              ; string offset=50 ; _fp4_gemm_kernel
	.section	".note.GNU-stack","",@progbits
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count:     0
    .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         8
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         16
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         24
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         32
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         40
        .size:           8
        .value_kind:     global_buffer
      - .offset:         48
        .size:           4
        .value_kind:     by_value
      - .offset:         52
        .size:           4
        .value_kind:     by_value
      - .offset:         56
        .size:           4
        .value_kind:     by_value
      - .offset:         60
        .size:           4
        .value_kind:     by_value
      - .offset:         64
        .size:           4
        .value_kind:     by_value
      - .offset:         68
        .size:           4
        .value_kind:     by_value
      - .offset:         72
        .size:           4
        .value_kind:     by_value
      - .address_space:  global
        .offset:         80
        .size:           8
        .value_kind:     global_buffer
      - .address_space:  global
        .offset:         88
        .size:           8
        .value_kind:     global_buffer
    .group_segment_fixed_size: 0
    .kernarg_segment_align: 8
    .kernarg_segment_size: 96
    .max_flat_workgroup_size: 256
    .name:           _fp4_gemm_kernel
    .private_segment_fixed_size: 0
    .sgpr_count:     64
    .sgpr_spill_count: 0
    .symbol:         _fp4_gemm_kernel.kd
    .uniform_work_group_size: 1
    .uses_dynamic_stack: false
    .vgpr_count:     91
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target:   amdgpu9.50-amd-amdhsa-unknown-gfx950
amdhsa.version:
  - 1
  - 2
...

	.end_amdgpu_metadata
	.section	.debug_line,"",@progbits
.Lline_table_start0:
