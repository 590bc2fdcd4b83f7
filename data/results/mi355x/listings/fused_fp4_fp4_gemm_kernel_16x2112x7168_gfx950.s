; mxlib fused_fp4 path, 16x2112x7168, kernel _fp4_gemm_kernel, compiled for gfx950
; stride_ak=1 BLOCK_M=16 BLOCK_N=128 BLOCK_K=256 SPLIT_K=15 EVEN_K=True TIES_AWAY=False B_CACHE=.cg RELEASE_THREADS=256 num_warps=4 num_stages=1 waves_per_eu=0 matrix_instr_nonkdim=16
; `python -m mxlib isa --target gfx950 --path fused_fp4 --shapes 16x2112x7168 --listing DIR`, Triton 3.9.0, 2026-12-03
; source lines of the K loop (file:line: text):
;   gemm_fused_fp4.py:135: return x.to(tl.int16, bitcast=True).to(tl.int32) << 16
;   gemm_fused_fp4.py:171: ab = ub & 0x7FFFFFFF  # |x|: non-negative floats order like their bits, and NaN/Inf bits are the largest
;   gemm_fused_fp4.py:173: field = ((amax + 0x200000) >> 23) & 0xFF
;   gemm_fused_fp4.py:174: e = tl.where(field == 255, 127, tl.minimum(tl.maximum(field - 129, -127), 127))
;   gemm_fused_fp4.py:176: inv = tl.where(inv_b == 0, 0x400000, inv_b << 23).to(tl.float32, bitcast=True)
;   gemm_fused_fp4.py:177: qa = ab.to(tl.float32, bitcast=True) * inv[:, :, None]  # |q|
;   gemm_fused_fp4.py:179: magic = ((tl.maximum(qa.to(tl.int32, bitcast=True) >> 23, 127) << 23) + 0x0B400000).to(tl.float32, bitcast=True)
;   gemm_fused_fp4.py:180: t = qa + magic
;   gemm_fused_fp4.py:182: code = (tb & 7) + (tb >> 22) - 299
;   gemm_fused_fp4.py:189: code = code | ((ub >> 28) & 8)
;   gemm_fused_fp4.py:190: nonfinite = amax >= 0x7F800000
;   gemm_fused_fp4.py:193: packed = (lo | (hi << 4)).to(tl.uint8)
;   gemm_fused_fp4.py:194: return packed, tl.where(nonfinite, 255, e + 127).to(tl.uint8)
;   gemm_fused_fp4.py:210: raw = tl.load(b_ptr + rg[:, None] * (16 * Kb) + it * (8 * BLOCK_K) + j[None, :], mask=mask, other=0,
;   gemm_fused_fp4.py:214: return tl.trans(tl.reshape(b, (BLOCK_N, BLOCK_K // 2)))
;   gemm_fused_fp4.py:233: return tl.load(s_ptr + _fp4_scale_col(g0) + s_off, mask=mask, other=127)
;   gemm_fused_fp4.py:292: for it in range(it_lo, it_hi):
;   gemm_fused_fp4.py:296: x = tl.load(a_base + it * BLOCK_K * stride_ak, mask=a_mask, other=0.0)
;   gemm_fused_fp4.py:300: acc = tl.dot_scaled(a_q, a_s, "e2m1", b, b_s, "e2m1", acc)
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
	.loc	1 264 0 prologue_end            ; gemm_fused_fp4.py:264:0
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
	s_mov_b64 s[44:45], s[2:3]
.Ltmp1:
	.file	2 "triton/language" "standard.py"
	.loc	2 43 13 is_stmt 1               ; standard.py:43:13 @[ gemm_fused_fp4.py:272:13 ]
	s_add_i32 s3, s14, 15
	s_mov_b64 s[36:37], s[10:11]
	.loc	2 43 12 is_stmt 0               ; standard.py:43:12 @[ gemm_fused_fp4.py:272:13 ]
	s_ashr_i32 s10, s3, 31
	s_lshr_b32 s10, s10, 28
	s_add_i32 s3, s3, s10
	s_ashr_i32 s3, s3, 4
.Ltmp2:
	.loc	1 274 13 is_stmt 1              ; gemm_fused_fp4.py:274:13
	s_abs_i32 s10, s3
	v_cvt_f32_u32_e32 v1, s10
	.loc	1 271 12                        ; gemm_fused_fp4.py:271:12
	s_mul_hi_i32 s2, s16, 0x88888889
	s_add_i32 s2, s2, s16
	.loc	1 274 13                        ; gemm_fused_fp4.py:274:13
	s_sub_i32 s18, 0, s10
	v_rcp_f32_e32 v1, v1
	.loc	1 271 12                        ; gemm_fused_fp4.py:271:12
	s_lshr_b32 s11, s2, 31
	s_ashr_i32 s2, s2, 3
	s_add_i32 s34, s2, s11
	.loc	1 274 13                        ; gemm_fused_fp4.py:274:13
	v_mul_f32_e32 v1, 0x4f7ffffe, v1
	v_cvt_u32_f32_e32 v1, v1
	s_abs_i32 s17, s34
	.loc	1 270 13                        ; gemm_fused_fp4.py:270:13
	s_mul_i32 s2, s34, 15
	.loc	1 274 13                        ; gemm_fused_fp4.py:274:13
	s_xor_b32 s11, s34, s3
	v_readfirstlane_b32 s19, v1
	s_mul_i32 s18, s18, s19
	s_mul_hi_u32 s18, s19, s18
	s_add_i32 s19, s19, s18
	s_mul_hi_u32 s18, s17, s19
	s_mul_i32 s19, s18, s10
	s_sub_i32 s17, s17, s19
	.loc	1 270 13                        ; gemm_fused_fp4.py:270:13
	s_sub_i32 s2, s16, s2
	.loc	1 274 13                        ; gemm_fused_fp4.py:274:13
	s_ashr_i32 s11, s11, 31
	s_add_i32 s19, s18, 1
	s_sub_i32 s20, s17, s10
	s_cmp_ge_u32 s17, s10
	s_cselect_b32 s18, s19, s18
	s_cselect_b32 s17, s20, s17
	s_add_i32 s19, s18, 1
	s_mov_b64 s[40:41], s[6:7]
	s_load_dword s7, s[0:1], 0x38
	s_cmp_ge_u32 s17, s10
	s_cselect_b32 s10, s19, s18
	s_xor_b32 s10, s10, s11
	s_sub_i32 s10, s10, s11
	.loc	1 273 13                        ; gemm_fused_fp4.py:273:13
	s_mul_i32 s3, s10, s3
	s_sub_i32 s11, s34, s3
.Ltmp3:
	.loc	2 43 13                         ; standard.py:43:13 @[ gemm_fused_fp4.py:277:13 ]
	s_waitcnt lgkmcnt(0)
	s_add_i32 s3, s7, 0xff
	.loc	2 43 12 is_stmt 0               ; standard.py:43:12 @[ gemm_fused_fp4.py:277:13 ]
	s_ashr_i32 s17, s3, 31
	s_lshr_b32 s17, s17, 24
	s_add_i32 s3, s3, s17
	s_ashr_i32 s3, s3, 8
.Ltmp4:
	.loc	1 278 13 is_stmt 1              ; gemm_fused_fp4.py:278:13
	s_mul_i32 s2, s3, s2
	s_mul_hi_i32 s17, s2, 0x88888889
	s_add_i32 s17, s17, s2
	.loc	1 279 13                        ; gemm_fused_fp4.py:279:13
	s_add_i32 s2, s2, s3
	s_mul_hi_i32 s3, s2, 0x88888889
.Ltmp5:
	.loc	1 258 9                         ; gemm_fused_fp4.py:258:9 @[ gemm_fused_fp4.py:314:12 ]
	v_readfirstlane_b32 s6, v0
.Ltmp6:
	.loc	1 279 13                        ; gemm_fused_fp4.py:279:13
	s_add_i32 s3, s3, s2
	.loc	1 278 13                        ; gemm_fused_fp4.py:278:13
	s_lshr_b32 s18, s17, 31
	s_ashr_i32 s17, s17, 3
	.loc	1 279 13                        ; gemm_fused_fp4.py:279:13
	s_lshr_b32 s2, s3, 31
	s_ashr_i32 s38, s3, 3
	.loc	1 281 28                        ; gemm_fused_fp4.py:281:28
	v_and_b32_e32 v18, 63, v0
	s_and_b32 s30, s6, 0xc0
	.loc	1 278 13                        ; gemm_fused_fp4.py:278:13
	s_add_i32 s35, s17, s18
	.loc	1 279 13                        ; gemm_fused_fp4.py:279:13
	s_add_i32 s38, s38, s2
	.loc	1 281 28                        ; gemm_fused_fp4.py:281:28
	v_or_b32_e32 v17, s30, v18
	.loc	1 282 28                        ; gemm_fused_fp4.py:282:28
	v_and_b32_e32 v16, 15, v0
	.loc	1 292 5                         ; gemm_fused_fp4.py:292:5
	s_cmp_lt_i32 s35, s38
	v_lshlrev_b32_e32 v20, 7, v16
	v_lshlrev_b32_e32 v19, 2, v17
	s_cbranch_scc1 .LBB0_2
; %bb.1:                                ; %.._crit_edge_crit_edge
	.loc	1 0 5 is_stmt 0                 ; gemm_fused_fp4.py:0:5
	s_mov_b64 s[2:3], 0
	s_branch .LBB0_3
.LBB0_2:
	s_mov_b64 s[2:3], -1
.LBB0_3:                                ; %Flow30
	s_lshr_b32 s17, s6, 6
	s_lshl_b32 s33, s11, 4
	s_lshl_b32 s48, s10, 7
	s_and_b64 s[2:3], s[2:3], exec
	s_cselect_b32 s2, 1, 0
	s_cmp_lg_u32 s2, 1
	s_cbranch_scc1 .LBB0_6
; %bb.4:                                ; %.lr.ph
	.loc	1 282 28 is_stmt 1              ; gemm_fused_fp4.py:282:28
	v_lshrrev_b32_e32 v3, 3, v17
	.loc	1 298 36                        ; gemm_fused_fp4.py:298:36
	s_ashr_i32 s19, s15, 31
	.loc	1 275 10                        ; gemm_fused_fp4.py:275:10
	s_lshr_b32 s2, s7, 31
	.loc	1 282 10                        ; gemm_fused_fp4.py:282:10
	v_or_b32_e32 v3, s48, v3
	.loc	1 283 10                        ; gemm_fused_fp4.py:283:10
	s_lshl_b32 s39, s10, 3
	.loc	1 283 36 is_stmt 0              ; gemm_fused_fp4.py:283:36
	s_lshr_b32 s43, s17, 1
	.loc	1 298 36 is_stmt 1              ; gemm_fused_fp4.py:298:36
	s_lshr_b32 s19, s19, 28
	.loc	1 275 10                        ; gemm_fused_fp4.py:275:10
	s_add_i32 s7, s7, s2
	.loc	1 283 10                        ; gemm_fused_fp4.py:283:10
	s_or_b32 s18, s39, s43
	.loc	1 298 36                        ; gemm_fused_fp4.py:298:36
	s_add_i32 s19, s15, s19
	.loc	1 285 14                        ; gemm_fused_fp4.py:285:14
	v_ashrrev_i32_e32 v9, 31, v3
	s_load_dword s42, s[0:1], 0x3c
	s_load_dword s31, s[0:1], 0x44
	.loc	1 275 10                        ; gemm_fused_fp4.py:275:10
	s_ashr_i32 s7, s7, 1
	.loc	1 283 10                        ; gemm_fused_fp4.py:283:10
	s_or_b32 s20, s18, 2
	s_or_b32 s22, s18, 4
	s_or_b32 s24, s18, 6
	.loc	1 298 36                        ; gemm_fused_fp4.py:298:36
	s_ashr_i32 s25, s19, 4
	.loc	1 285 14                        ; gemm_fused_fp4.py:285:14
	v_lshrrev_b32_e32 v9, 27, v9
.Ltmp7:
	.loc	1 207 13                        ; gemm_fused_fp4.py:207:13 @[ gemm_fused_fp4.py:298:13 ]
	s_cmp_lt_i32 s18, s25
.Ltmp8:
	.loc	1 285 14                        ; gemm_fused_fp4.py:285:14
	v_add_u32_e32 v9, v3, v9
	.loc	1 281 28                        ; gemm_fused_fp4.py:281:28
	v_lshrrev_b32_e32 v1, 5, v17
.Ltmp9:
	.loc	1 207 13                        ; gemm_fused_fp4.py:207:13 @[ gemm_fused_fp4.py:298:13 ]
	s_cselect_b64 s[18:19], -1, 0
	s_cmp_lt_i32 s20, s25
.Ltmp10:
	.loc	1 285 14                        ; gemm_fused_fp4.py:285:14
	v_lshrrev_b32_e32 v10, 5, v9
	.loc	1 285 59 is_stmt 0              ; gemm_fused_fp4.py:285:59
	v_and_b32_e32 v9, 0xffe0, v9
	.loc	1 281 10 is_stmt 1              ; gemm_fused_fp4.py:281:10
	v_or_b32_e32 v2, s33, v1
.Ltmp11:
	.loc	1 207 13                        ; gemm_fused_fp4.py:207:13 @[ gemm_fused_fp4.py:298:13 ]
	s_cselect_b64 s[20:21], -1, 0
	s_cmp_lt_i32 s22, s25
.Ltmp12:
	.loc	1 289 48                        ; gemm_fused_fp4.py:289:48
	v_lshlrev_b32_e32 v7, 3, v0
	.loc	1 285 59                        ; gemm_fused_fp4.py:285:59
	v_sub_u32_e32 v9, v3, v9
	.loc	1 293 19                        ; gemm_fused_fp4.py:293:19
	v_cmp_gt_i32_e64 s[28:29], s14, v2
.Ltmp13:
	.loc	1 207 13                        ; gemm_fused_fp4.py:207:13 @[ gemm_fused_fp4.py:298:13 ]
	s_cselect_b64 s[22:23], -1, 0
	s_cmp_lt_i32 s24, s25
.Ltmp14:
	.loc	1 289 14                        ; gemm_fused_fp4.py:289:14
	s_waitcnt lgkmcnt(0)
	s_mul_i32 s46, s33, s42
	.loc	1 289 48 is_stmt 0              ; gemm_fused_fp4.py:289:48
	v_and_b32_e32 v2, 0xf8, v7
	.loc	1 285 58 is_stmt 1              ; gemm_fused_fp4.py:285:58
	v_bfe_i32 v11, v9, 0, 8
.Ltmp15:
	.loc	1 207 13                        ; gemm_fused_fp4.py:207:13 @[ gemm_fused_fp4.py:298:13 ]
	s_cselect_b64 s[24:25], -1, 0
.Ltmp16:
	.loc	1 292 5                         ; gemm_fused_fp4.py:292:5
	v_add_u32_e32 v2, s46, v2
	.loc	1 285 58                        ; gemm_fused_fp4.py:285:58
	v_bfe_u32 v11, v11, 11, 4
	.loc	1 285 43 is_stmt 0              ; gemm_fused_fp4.py:285:43
	s_ashr_i32 s46, s48, 31
	.loc	1 285 58                        ; gemm_fused_fp4.py:285:58
	v_add_u16_e32 v9, v9, v11
	v_mov_b32_e32 v11, 4
	.loc	1 285 43                        ; gemm_fused_fp4.py:285:43
	s_lshr_b32 s47, s46, 28
	.loc	1 285 58                        ; gemm_fused_fp4.py:285:58
	v_ashrrev_i16_sdwa v9, v11, sext(v9) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:BYTE_0
	.loc	1 285 43                        ; gemm_fused_fp4.py:285:43
	v_add_u32_e32 v11, s47, v3
	v_and_b32_e32 v11, 0x3ffffff0, v11
	.loc	1 282 10 is_stmt 1              ; gemm_fused_fp4.py:282:10
	v_or_b32_e32 v4, 32, v3
	v_or_b32_e32 v5, 64, v3
	v_or_b32_e32 v6, 0x60, v3
	.loc	1 287 15                        ; gemm_fused_fp4.py:287:15
	v_cmp_gt_i32_e32 vcc, s15, v3
	.loc	1 285 43                        ; gemm_fused_fp4.py:285:43
	v_sub_u32_e32 v3, v3, v11
	.loc	1 285 27 is_stmt 0              ; gemm_fused_fp4.py:285:27
	s_lshl_b32 s50, s31, 5
	.loc	1 285 14                        ; gemm_fused_fp4.py:285:14
	s_lshr_b32 s31, s46, 27
	.loc	1 281 28 is_stmt 1              ; gemm_fused_fp4.py:281:28
	v_or_b32_e32 v11, 8, v1
	.loc	1 287 15                        ; gemm_fused_fp4.py:287:15
	v_cmp_gt_i32_e64 s[2:3], s15, v4
	v_cmp_gt_i32_e64 s[10:11], s15, v5
	v_cmp_gt_i32_e64 s[26:27], s15, v6
.Ltmp17:
	.loc	1 210 42                        ; gemm_fused_fp4.py:210:42 @[ gemm_fused_fp4.py:298:13 ]
	s_lshl_b32 s49, s7, 4
.Ltmp18:
	.loc	1 285 14                        ; gemm_fused_fp4.py:285:14
	v_add_u32_e32 v6, s31, v6
	v_add_u32_e32 v5, s31, v5
	v_add_u32_e32 v4, s31, v4
	.loc	1 283 36                        ; gemm_fused_fp4.py:283:36
	s_and_b32 s52, s30, 0x80
	.loc	1 292 5                         ; gemm_fused_fp4.py:292:5
	v_mad_u64_u32 v[12:13], s[30:31], v1, s42, v[2:3]
	v_mad_u64_u32 v[14:15], s[30:31], v11, s42, v[2:3]
.Ltmp19:
	.loc	1 210 74                        ; gemm_fused_fp4.py:210:74 @[ gemm_fused_fp4.py:298:13 ]
	v_lshlrev_b32_e32 v8, 4, v17
	s_mul_i32 s30, s43, s49
	s_lshl_b32 s31, s7, 5
	s_lshl_b32 s42, s7, 6
	s_mulk_i32 s7, 0x60
	v_and_b32_e32 v8, 0x7f0, v8
	s_add_i32 s7, s30, s7
	v_lshlrev_b32_e32 v1, 5, v17
	v_and_b32_e32 v11, 32, v0
	s_add_i32 s31, s30, s31
	s_add_i32 s42, s30, s42
.Ltmp20:
	.loc	1 292 5                         ; gemm_fused_fp4.py:292:5
	v_add_u32_e32 v13, s30, v8
	v_add_u32_e32 v22, s7, v8
	v_and_b32_e32 v1, 0xc00, v1
	v_lshlrev_b32_e32 v2, 4, v16
	s_lshl1_add_u32 s7, s52, 0
	s_lshl_b32 s30, s17, 8
	v_lshlrev_b32_e32 v23, 5, v11
	v_lshrrev_b32_e32 v24, 1, v0
	v_add3_u32 v1, s7, v1, v2
	v_add3_u32 v2, s30, v23, v2
	v_lshlrev_b32_e32 v23, 6, v0
	v_and_b32_e32 v24, 2, v24
	s_movk_i32 s30, 0xc0
	.loc	1 285 14                        ; gemm_fused_fp4.py:285:14
	v_lshrrev_b32_e32 v6, 5, v6
	v_lshrrev_b32_e32 v5, 5, v5
	v_lshrrev_b32_e32 v4, 5, v4
	v_and_or_b32 v23, v23, s30, v24
	.loc	1 285 58 is_stmt 0              ; gemm_fused_fp4.py:285:58
	v_bfe_i32 v9, v9, 0, 16
	v_mul_lo_u32 v10, v10, s50
	v_mul_lo_u32 v4, v4, s50
	v_mul_lo_u32 v5, v5, s50
	v_mul_lo_u32 v6, v6, s50
	.loc	1 292 5 is_stmt 1               ; gemm_fused_fp4.py:292:5
	v_lshl_add_u32 v3, v3, 2, v23
	v_add3_u32 v23, v3, v10, v9
	v_add3_u32 v24, v3, v4, v9
	v_add3_u32 v25, v3, v5, v9
	v_add3_u32 v26, v3, v6, v9
	v_lshlrev_b32_e32 v9, 2, v0
	s_lshl_b32 s30, s17, 4
	v_and_b32_e32 v10, 0x70, v9
	v_lshrrev_b32_e32 v11, 3, v11
	v_xor_b32_e32 v3, s30, v19
	s_movk_i32 s30, 0x70
	v_and_b32_e32 v6, 48, v0
	v_add3_u32 v10, 0, v11, v10
	v_and_b32_e32 v11, 56, v0
	v_bfe_u32 v27, v0, 1, 2
	v_and_b32_e32 v9, 4, v9
	v_and_b32_e32 v5, 0x70, v7
	v_bitop3_b32 v7, v7, v6, s30 bitop3:0x6c
	v_add3_u32 v9, 0, v27, v9
	v_lshlrev_b32_e32 v27, 5, v0
	v_lshrrev_b32_e32 v28, 1, v11
	s_movk_i32 s30, 0xe0
	v_add_u32_e32 v15, s31, v8
	v_add_u32_e32 v21, s42, v8
	v_lshlrev_b32_e32 v8, 8, v0
	s_bfe_i32 s6, s6, 0x10006
	v_and_or_b32 v27, v27, s30, v28
	v_mov_b32_e32 v28, 0x280
	v_bfe_i32 v0, v0, 3, 1
	v_bitop3_b32 v5, v5, v20, v6 bitop3:0xde
	v_bitop3_b32 v39, s6, v27, v28 bitop3:0x6c
	v_lshlrev_b32_e32 v6, 1, v6
	v_and_b32_e32 v0, 0x280, v0
	s_lshr_b32 s6, s52, 6
	s_movk_i32 s30, 0x11c
	.loc	1 283 36                        ; gemm_fused_fp4.py:283:36
	s_movk_i32 s51, 0x80
	v_and_or_b32 v6, v19, s30, v6
	v_or_b32_e32 v0, s6, v0
	v_and_b32_e32 v8, 0x1000, v8
	v_xor_b32_e32 v4, 64, v3
	v_bitop3_b32 v7, v7, 64, v20 bitop3:0x36
	v_or_b32_e32 v40, v6, v0
	v_bitop3_b32 v6, v6, s51, v0 bitop3:0x36
	v_mov_b32_e32 v0, 0
.Ltmp21:
	.loc	1 210 19                        ; gemm_fused_fp4.py:210:19 @[ gemm_fused_fp4.py:298:13 ]
	s_mul_i32 s39, s39, s49
	s_and_b32 s45, s45, 0xffff
	s_mov_b32 s47, 0x27000
	s_mov_b32 s46, 0x7ffffffe
	s_and_b32 s5, s5, 0xffff
	s_and_b32 s41, s41, 0xffff
	v_bfrev_b32_e32 v27, 1
	s_movk_i32 s49, 0xff
	s_movk_i32 s50, 0x7f
	v_mov_b32_e32 v28, 0x7f
	v_mov_b32_e32 v29, 0x400000
	v_mov_b32_e32 v30, 0xb400000
	s_movk_i32 s51, 0xd5
	s_mov_b32 s52, 0x7f7fffff
	v_add_u32_e32 v31, v1, v8
	v_add_u32_e32 v32, v2, v8
	v_add_u32_e32 v33, 0, v3
	v_add_u32_e32 v34, 0, v4
	v_add_u32_e32 v35, 0, v5
	v_add_u32_e32 v36, 0, v7
	v_add_u32_e32 v37, s17, v10
	v_add_u32_e32 v38, v9, v11
	v_add_u32_e32 v39, s7, v39
	v_add_u32_e32 v40, 0, v40
	v_add_u32_e32 v41, 0, v6
	s_mov_b32 s53, 0xc0c0004
	s_mov_b32 s54, 0x1050004
	v_mov_b32_e32 v42, 12
	v_mov_b32_e32 v1, v0
	v_mov_b32_e32 v2, v0
	v_mov_b32_e32 v3, v0
	v_mov_b32_e32 v4, v0
	v_mov_b32_e32 v5, v0
	v_mov_b32_e32 v6, v0
	v_mov_b32_e32 v7, v0
.Ltmp22:
.LBB0_5:                                ; =>This Inner Loop Header: Depth=1
	.loc	1 296 30                        ; gemm_fused_fp4.py:296:30
	s_lshl_b32 s42, s35, 8
	.loc	1 296 13 is_stmt 0              ; gemm_fused_fp4.py:296:13
	v_add_lshl_u32 v8, s42, v12, 1
	v_cndmask_b32_e64 v8, v27, v8, s[28:29]
	buffer_load_dwordx4 v[44:47], v8, s[44:47], 0 offen
	v_add_lshl_u32 v8, s42, v14, 1
	v_cndmask_b32_e64 v8, v27, v8, s[28:29]
	buffer_load_dwordx4 v[8:11], v8, s[44:47], 0 offen
.Ltmp23:
	.loc	1 233 12 is_stmt 1              ; gemm_fused_fp4.py:233:12 @[ gemm_fused_fp4.py:299:15 ]
	s_mov_b32 s43, s47
.Ltmp24:
	.loc	1 135 16                        ; gemm_fused_fp4.py:135:16 @[ gemm_fused_fp4.py:297:34 ]
	s_waitcnt vmcnt(1)
	v_and_b32_e32 v50, 0xffff0000, v45
	v_and_b32_e32 v52, 0xffff0000, v44
.Ltmp25:
	.loc	1 171 10                        ; gemm_fused_fp4.py:171:10 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v51, 0x7fff0000, v50
	v_and_b32_e32 v50, 0x7fff0000, v52
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v52, v42, sext(v45) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
.Ltmp26:
	.loc	1 135 16                        ; gemm_fused_fp4.py:135:16 @[ gemm_fused_fp4.py:297:34 ]
	v_lshlrev_b32_e32 v43, 16, v45
	v_lshlrev_b32_e32 v48, 16, v44
.Ltmp27:
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v53, v42, sext(v44) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v63, v42, sext(v44) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
	.loc	1 189 24 is_stmt 0              ; gemm_fused_fp4.py:189:24 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v64, 8, v52
.Ltmp28:
	.loc	1 135 16 is_stmt 1              ; gemm_fused_fp4.py:135:16 @[ gemm_fused_fp4.py:297:34 ]
	v_lshlrev_b32_e32 v44, 16, v47
	v_lshlrev_b32_e32 v52, 16, v46
	v_and_b32_e32 v54, 0xffff0000, v46
.Ltmp29:
	.loc	1 171 10                        ; gemm_fused_fp4.py:171:10 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v49, 0x7fff0000, v43
	v_and_b32_e32 v48, 0x7fff0000, v48
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v62, v42, sext(v45) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
	.loc	1 171 10                        ; gemm_fused_fp4.py:171:10 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v45, 0x7fff0000, v44
	v_and_b32_e32 v44, 0x7fff0000, v52
	v_and_b32_e32 v52, 0x7fff0000, v54
.Ltmp30:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max3_u32 v43, v48, v50, v49
.Ltmp31:
	.loc	1 189 24                        ; gemm_fused_fp4.py:189:24 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v65, 8, v53
.Ltmp32:
	.loc	1 135 16                        ; gemm_fused_fp4.py:135:16 @[ gemm_fused_fp4.py:297:34 ]
	v_and_b32_e32 v53, 0xffff0000, v47
.Ltmp33:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max3_u32 v54, v44, v52, v45
.Ltmp34:
	.loc	1 171 10                        ; gemm_fused_fp4.py:171:10 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v53, 0x7fff0000, v53
.Ltmp35:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max3_u32 v43, v43, v51, v54
	v_max_u32_e32 v43, v43, v53
.Ltmp36:
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v56, v42, sext(v46) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v67, v42, sext(v46) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
.Ltmp37:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max_i32_dpp v43, v43, v43 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
.Ltmp38:
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v55, v42, sext(v47) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v66, v42, sext(v47) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
.Ltmp39:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max_i32_dpp v43, v43, v43 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
.Ltmp40:
	.loc	1 173 15                        ; gemm_fused_fp4.py:173:15 @[ gemm_fused_fp4.py:297:20 ]
	v_add_u32_e32 v46, 0x200000, v43
	.loc	1 173 13 is_stmt 0              ; gemm_fused_fp4.py:173:13 @[ gemm_fused_fp4.py:297:20 ]
	v_bfe_u32 v46, v46, 23, 8
	.loc	1 174 48 is_stmt 1              ; gemm_fused_fp4.py:174:48 @[ gemm_fused_fp4.py:297:20 ]
	v_max_u32_e32 v47, 2, v46
	.loc	1 174 37 is_stmt 0              ; gemm_fused_fp4.py:174:37 @[ gemm_fused_fp4.py:297:20 ]
	v_add_u32_e32 v47, 0xffffff7f, v47
	.loc	1 174 9                         ; gemm_fused_fp4.py:174:9 @[ gemm_fused_fp4.py:297:20 ]
	v_cmp_ne_u32_e64 s[6:7], s49, v46
	.loc	1 189 24 is_stmt 1              ; gemm_fused_fp4.py:189:24 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v68, 8, v55
	v_and_b32_e32 v69, 8, v56
	.loc	1 174 9                         ; gemm_fused_fp4.py:174:9 @[ gemm_fused_fp4.py:297:20 ]
	v_cndmask_b32_e64 v70, v28, v47, s[6:7]
	.loc	1 176 42                        ; gemm_fused_fp4.py:176:42 @[ gemm_fused_fp4.py:297:20 ]
	v_lshlrev_b32_e32 v46, 23, v70
	v_sub_u32_e32 v46, 1.0, v46
	.loc	1 176 11 is_stmt 0              ; gemm_fused_fp4.py:176:11 @[ gemm_fused_fp4.py:297:20 ]
	v_cmp_ne_u32_e64 s[6:7], s50, v70
	s_nop 1
	v_cndmask_b32_e64 v46, v29, v46, s[6:7]
	.loc	1 177 10 is_stmt 1              ; gemm_fused_fp4.py:177:10 @[ gemm_fused_fp4.py:297:20 ]
	v_pk_mul_f32 v[54:55], v[46:47], v[48:49] op_sel_hi:[0,1]
	v_pk_mul_f32 v[56:57], v[46:47], v[50:51] op_sel_hi:[0,1]
	v_pk_mul_f32 v[58:59], v[46:47], v[44:45] op_sel_hi:[0,1]
	v_pk_mul_f32 v[60:61], v[46:47], v[52:53] op_sel_hi:[0,1]
	.loc	1 179 26                        ; gemm_fused_fp4.py:179:26 @[ gemm_fused_fp4.py:297:20 ]
	v_ashrrev_i32_e32 v47, 23, v56
	v_ashrrev_i32_e32 v55, 23, v55
	v_ashrrev_i32_e32 v54, 23, v54
	v_ashrrev_i32_e32 v56, 23, v57
	v_ashrrev_i32_e32 v57, 23, v59
	v_ashrrev_i32_e32 v58, 23, v58
	v_ashrrev_i32_e32 v59, 23, v61
	v_ashrrev_i32_e32 v60, 23, v60
	.loc	1 179 15 is_stmt 0              ; gemm_fused_fp4.py:179:15 @[ gemm_fused_fp4.py:297:20 ]
	v_max_i32_e32 v55, 0x7f, v55
	v_max_i32_e32 v54, 0x7f, v54
	v_max_i32_e32 v56, 0x7f, v56
	v_max_i32_e32 v47, 0x7f, v47
	v_max_i32_e32 v58, 0x7f, v58
	v_max_i32_e32 v61, 0x7f, v57
	v_max_i32_e32 v60, 0x7f, v60
	v_max_i32_e32 v71, 0x7f, v59
	.loc	1 179 14                        ; gemm_fused_fp4.py:179:14 @[ gemm_fused_fp4.py:297:20 ]
	v_lshl_add_u32 v55, v55, 23, v30
	v_lshl_add_u32 v54, v54, 23, v30
	v_lshl_add_u32 v57, v56, 23, v30
	v_lshl_add_u32 v56, v47, 23, v30
	v_lshl_add_u32 v59, v61, 23, v30
	v_lshl_add_u32 v58, v58, 23, v30
	v_lshl_add_u32 v61, v71, 23, v30
	v_lshl_add_u32 v60, v60, 23, v30
	.loc	1 180 9 is_stmt 1               ; gemm_fused_fp4.py:180:9 @[ gemm_fused_fp4.py:297:20 ]
	v_pk_fma_f32 v[48:49], v[46:47], v[48:49], v[54:55] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[50:51], v[46:47], v[50:51], v[56:57] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[44:45], v[46:47], v[44:45], v[58:59] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[46:47], v[46:47], v[52:53], v[60:61] op_sel_hi:[0,1,1]
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v58, 7, v47
	.loc	1 182 24 is_stmt 0              ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_ashrrev_i32_e32 v47, 22, v47
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v54, 7, v51
	v_and_b32_e32 v59, 7, v46
	.loc	1 182 24                        ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_ashrrev_i32_e32 v51, 22, v51
	v_ashrrev_i32_e32 v46, 22, v46
	.loc	1 182 12                        ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v47, v47, v58, 5
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v55, 7, v50
	v_and_b32_e32 v56, 7, v45
	.loc	1 182 24                        ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_ashrrev_i32_e32 v50, 22, v50
	v_lshrrev_b32_e32 v45, 22, v45
	.loc	1 182 12                        ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v51, v51, v54, 5
	v_add3_u32 v46, v46, v59, 5
	.loc	1 189 16 is_stmt 1              ; gemm_fused_fp4.py:189:16 @[ gemm_fused_fp4.py:297:20 ]
	v_and_or_b32 v47, v66, 8, v47
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v52, 7, v49
	v_and_b32_e32 v57, 7, v44
	.loc	1 182 24 is_stmt 0              ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_e32 v49, 22, v49
	v_lshrrev_b32_e32 v44, 22, v44
	.loc	1 182 12                        ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v50, v50, v55, 5
	v_add3_u32 v45, v45, v56, s51
	.loc	1 189 16 is_stmt 1              ; gemm_fused_fp4.py:189:16 @[ gemm_fused_fp4.py:297:20 ]
	v_and_or_b32 v51, v62, 8, v51
	v_and_or_b32 v46, v67, 8, v46
	.loc	1 193 21                        ; gemm_fused_fp4.py:193:21 @[ gemm_fused_fp4.py:297:20 ]
	v_lshlrev_b32_e32 v47, 4, v47
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v53, 7, v48
	.loc	1 182 24 is_stmt 0              ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_e32 v48, 22, v48
	.loc	1 182 12                        ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v49, v49, v52, s51
	v_add3_u32 v44, v44, v57, s51
	.loc	1 189 16 is_stmt 1              ; gemm_fused_fp4.py:189:16 @[ gemm_fused_fp4.py:297:20 ]
	v_and_or_b32 v50, v63, 8, v50
	.loc	1 190 17                        ; gemm_fused_fp4.py:190:17 @[ gemm_fused_fp4.py:297:20 ]
	v_cmp_lt_u32_e64 s[6:7], s52, v43
	.loc	1 193 21                        ; gemm_fused_fp4.py:193:21 @[ gemm_fused_fp4.py:297:20 ]
	v_lshlrev_b32_e32 v43, 4, v51
	v_lshlrev_b32_e32 v46, 4, v46
	.loc	1 193 15 is_stmt 0              ; gemm_fused_fp4.py:193:15 @[ gemm_fused_fp4.py:297:20 ]
	v_or3_b32 v45, v45, v68, v47
	.loc	1 182 12 is_stmt 1              ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v48, v48, v53, s51
	.loc	1 193 21                        ; gemm_fused_fp4.py:193:21 @[ gemm_fused_fp4.py:297:20 ]
	v_lshlrev_b32_e32 v50, 4, v50
	.loc	1 193 15 is_stmt 0              ; gemm_fused_fp4.py:193:15 @[ gemm_fused_fp4.py:297:20 ]
	v_or3_b32 v43, v49, v64, v43
	v_or3_b32 v44, v44, v69, v46
	v_cndmask_b32_e64 v45, v45, 0, s[6:7]
	v_or3_b32 v48, v48, v65, v50
	v_cndmask_b32_e64 v43, v43, 0, s[6:7]
	v_cndmask_b32_e64 v44, v44, 0, s[6:7]
	v_lshlrev_b16_e32 v45, 8, v45
	v_cndmask_b32_e64 v46, v48, 0, s[6:7]
	v_lshlrev_b16_e32 v43, 8, v43
	v_bitop3_b16 v44, v44, v45, s49 bitop3:0xec
	v_bitop3_b16 v43, v46, v43, s49 bitop3:0xec
	v_lshlrev_b32_e32 v44, 16, v44
	v_or_b32_sdwa v43, v44, v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
.Ltmp41:
	.loc	1 135 16 is_stmt 1              ; gemm_fused_fp4.py:135:16 @[ gemm_fused_fp4.py:297:34 ]
	s_waitcnt vmcnt(0)
	v_lshlrev_b32_e32 v44, 16, v9
	v_lshlrev_b32_e32 v46, 16, v8
	v_and_b32_e32 v48, 0xffff0000, v8
.Ltmp42:
	.loc	1 171 10                        ; gemm_fused_fp4.py:171:10 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v45, 0x7fff0000, v44
	v_and_b32_e32 v44, 0x7fff0000, v46
	v_and_b32_e32 v46, 0x7fff0000, v48
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v48, v42, sext(v9) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v49, v42, sext(v8) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v59, v42, sext(v8) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
	.loc	1 189 24 is_stmt 0              ; gemm_fused_fp4.py:189:24 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v60, 8, v48
.Ltmp43:
	.loc	1 135 16 is_stmt 1              ; gemm_fused_fp4.py:135:16 @[ gemm_fused_fp4.py:297:34 ]
	v_lshlrev_b32_e32 v8, 16, v11
	v_lshlrev_b32_e32 v48, 16, v10
	v_and_b32_e32 v51, 0xffff0000, v10
	v_and_b32_e32 v47, 0xffff0000, v9
.Ltmp44:
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v58, v42, sext(v9) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
	.loc	1 171 10                        ; gemm_fused_fp4.py:171:10 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v9, 0x7fff0000, v8
	v_and_b32_e32 v8, 0x7fff0000, v48
	v_and_b32_e32 v48, 0x7fff0000, v51
	v_and_b32_e32 v47, 0x7fff0000, v47
.Ltmp45:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max3_u32 v50, v44, v46, v45
.Ltmp46:
	.loc	1 189 24                        ; gemm_fused_fp4.py:189:24 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v61, 8, v49
.Ltmp47:
	.loc	1 135 16                        ; gemm_fused_fp4.py:135:16 @[ gemm_fused_fp4.py:297:34 ]
	v_and_b32_e32 v49, 0xffff0000, v11
.Ltmp48:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max3_u32 v51, v8, v48, v9
.Ltmp49:
	.loc	1 171 10                        ; gemm_fused_fp4.py:171:10 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v49, 0x7fff0000, v49
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v53, v42, sext(v10) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v63, v42, sext(v10) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
.Ltmp50:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max3_u32 v10, v50, v47, v51
	v_max_u32_e32 v10, v10, v49
.Ltmp51:
	.loc	1 189 25                        ; gemm_fused_fp4.py:189:25 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_sdwa v52, v42, sext(v11) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	v_lshrrev_b32_sdwa v62, v42, sext(v11) dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_1
.Ltmp52:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max_i32_dpp v10, v10, v10 quad_perm:[2,3,0,1] row_mask:0xf bank_mask:0xf bound_ctrl:1
.Ltmp53:
	.loc	1 189 24                        ; gemm_fused_fp4.py:189:24 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v64, 8, v52
	v_and_b32_e32 v65, 8, v53
.Ltmp54:
	.loc	2 196 12                        ; standard.py:196:12 @[ standard.py:216:16 @[ gemm_fused_fp4.py:172:12 @[ gemm_fused_fp4.py:297:20 ] ] ]
	v_max_i32_dpp v66, v10, v10 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf bound_ctrl:1
.Ltmp55:
	.loc	1 173 15                        ; gemm_fused_fp4.py:173:15 @[ gemm_fused_fp4.py:297:20 ]
	v_add_u32_e32 v10, 0x200000, v66
	.loc	1 173 13 is_stmt 0              ; gemm_fused_fp4.py:173:13 @[ gemm_fused_fp4.py:297:20 ]
	v_bfe_u32 v10, v10, 23, 8
	.loc	1 174 48 is_stmt 1              ; gemm_fused_fp4.py:174:48 @[ gemm_fused_fp4.py:297:20 ]
	v_max_u32_e32 v11, 2, v10
	.loc	1 174 37 is_stmt 0              ; gemm_fused_fp4.py:174:37 @[ gemm_fused_fp4.py:297:20 ]
	v_add_u32_e32 v11, 0xffffff7f, v11
	.loc	1 174 9                         ; gemm_fused_fp4.py:174:9 @[ gemm_fused_fp4.py:297:20 ]
	v_cmp_ne_u32_e64 s[30:31], s49, v10
	s_nop 1
	v_cndmask_b32_e64 v67, v28, v11, s[30:31]
	.loc	1 176 42 is_stmt 1              ; gemm_fused_fp4.py:176:42 @[ gemm_fused_fp4.py:297:20 ]
	v_lshlrev_b32_e32 v10, 23, v67
	v_sub_u32_e32 v10, 1.0, v10
	.loc	1 176 11 is_stmt 0              ; gemm_fused_fp4.py:176:11 @[ gemm_fused_fp4.py:297:20 ]
	v_cmp_ne_u32_e64 s[30:31], s50, v67
	s_nop 1
	v_cndmask_b32_e64 v10, v29, v10, s[30:31]
	.loc	1 177 10 is_stmt 1              ; gemm_fused_fp4.py:177:10 @[ gemm_fused_fp4.py:297:20 ]
	v_pk_mul_f32 v[50:51], v[10:11], v[44:45] op_sel_hi:[0,1]
	v_pk_mul_f32 v[52:53], v[10:11], v[46:47] op_sel_hi:[0,1]
	v_pk_mul_f32 v[54:55], v[10:11], v[8:9] op_sel_hi:[0,1]
	v_pk_mul_f32 v[56:57], v[10:11], v[48:49] op_sel_hi:[0,1]
	.loc	1 179 26                        ; gemm_fused_fp4.py:179:26 @[ gemm_fused_fp4.py:297:20 ]
	v_ashrrev_i32_e32 v11, 23, v52
	v_ashrrev_i32_e32 v51, 23, v51
	v_ashrrev_i32_e32 v50, 23, v50
	v_ashrrev_i32_e32 v52, 23, v53
	v_ashrrev_i32_e32 v53, 23, v55
	v_ashrrev_i32_e32 v54, 23, v54
	v_ashrrev_i32_e32 v55, 23, v57
	v_ashrrev_i32_e32 v56, 23, v56
	.loc	1 179 15 is_stmt 0              ; gemm_fused_fp4.py:179:15 @[ gemm_fused_fp4.py:297:20 ]
	v_max_i32_e32 v51, 0x7f, v51
	v_max_i32_e32 v50, 0x7f, v50
	v_max_i32_e32 v52, 0x7f, v52
	v_max_i32_e32 v11, 0x7f, v11
	v_max_i32_e32 v54, 0x7f, v54
	v_max_i32_e32 v57, 0x7f, v53
	v_max_i32_e32 v56, 0x7f, v56
	v_max_i32_e32 v68, 0x7f, v55
	.loc	1 179 14                        ; gemm_fused_fp4.py:179:14 @[ gemm_fused_fp4.py:297:20 ]
	v_lshl_add_u32 v51, v51, 23, v30
	v_lshl_add_u32 v50, v50, 23, v30
	v_lshl_add_u32 v53, v52, 23, v30
	v_lshl_add_u32 v52, v11, 23, v30
	v_lshl_add_u32 v55, v57, 23, v30
	v_lshl_add_u32 v54, v54, 23, v30
	v_lshl_add_u32 v57, v68, 23, v30
	v_lshl_add_u32 v56, v56, 23, v30
	.loc	1 180 9 is_stmt 1               ; gemm_fused_fp4.py:180:9 @[ gemm_fused_fp4.py:297:20 ]
	v_pk_fma_f32 v[44:45], v[10:11], v[44:45], v[50:51] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[46:47], v[10:11], v[46:47], v[52:53] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[8:9], v[10:11], v[8:9], v[54:55] op_sel_hi:[0,1,1]
	v_pk_fma_f32 v[10:11], v[10:11], v[48:49], v[56:57] op_sel_hi:[0,1,1]
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v54, 7, v11
	.loc	1 182 24 is_stmt 0              ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_ashrrev_i32_e32 v11, 22, v11
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v50, 7, v47
	v_and_b32_e32 v55, 7, v10
	.loc	1 182 24                        ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_ashrrev_i32_e32 v47, 22, v47
	v_ashrrev_i32_e32 v10, 22, v10
	.loc	1 182 12                        ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v11, v11, v54, 5
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v51, 7, v46
	v_and_b32_e32 v52, 7, v9
	.loc	1 182 24                        ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_ashrrev_i32_e32 v46, 22, v46
	v_lshrrev_b32_e32 v9, 22, v9
	.loc	1 182 12                        ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v47, v47, v50, 5
	v_add3_u32 v10, v10, v55, 5
	.loc	1 189 16 is_stmt 1              ; gemm_fused_fp4.py:189:16 @[ gemm_fused_fp4.py:297:20 ]
	v_and_or_b32 v11, v62, 8, v11
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v48, 7, v45
	v_and_b32_e32 v53, 7, v8
	.loc	1 182 24 is_stmt 0              ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_e32 v45, 22, v45
	v_lshrrev_b32_e32 v8, 22, v8
	.loc	1 182 12                        ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v46, v46, v51, 5
	v_add3_u32 v9, v9, v52, s51
	.loc	1 189 16 is_stmt 1              ; gemm_fused_fp4.py:189:16 @[ gemm_fused_fp4.py:297:20 ]
	v_and_or_b32 v47, v58, 8, v47
	v_and_or_b32 v10, v63, 8, v10
	.loc	1 193 21                        ; gemm_fused_fp4.py:193:21 @[ gemm_fused_fp4.py:297:20 ]
	v_lshlrev_b32_e32 v11, 4, v11
	.loc	1 182 13                        ; gemm_fused_fp4.py:182:13 @[ gemm_fused_fp4.py:297:20 ]
	v_and_b32_e32 v49, 7, v44
	.loc	1 182 24 is_stmt 0              ; gemm_fused_fp4.py:182:24 @[ gemm_fused_fp4.py:297:20 ]
	v_lshrrev_b32_e32 v44, 22, v44
	.loc	1 182 12                        ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v45, v45, v48, s51
	v_add3_u32 v8, v8, v53, s51
	.loc	1 189 16 is_stmt 1              ; gemm_fused_fp4.py:189:16 @[ gemm_fused_fp4.py:297:20 ]
	v_and_or_b32 v46, v59, 8, v46
	.loc	1 190 17                        ; gemm_fused_fp4.py:190:17 @[ gemm_fused_fp4.py:297:20 ]
	v_cmp_lt_u32_e64 s[30:31], s52, v66
	.loc	1 193 21                        ; gemm_fused_fp4.py:193:21 @[ gemm_fused_fp4.py:297:20 ]
	v_lshlrev_b32_e32 v47, 4, v47
	v_lshlrev_b32_e32 v10, 4, v10
	.loc	1 193 15 is_stmt 0              ; gemm_fused_fp4.py:193:15 @[ gemm_fused_fp4.py:297:20 ]
	v_or3_b32 v9, v9, v64, v11
	.loc	1 182 12 is_stmt 1              ; gemm_fused_fp4.py:182:12 @[ gemm_fused_fp4.py:297:20 ]
	v_add3_u32 v44, v44, v49, s51
	.loc	1 193 21                        ; gemm_fused_fp4.py:193:21 @[ gemm_fused_fp4.py:297:20 ]
	v_lshlrev_b32_e32 v46, 4, v46
	.loc	1 193 15 is_stmt 0              ; gemm_fused_fp4.py:193:15 @[ gemm_fused_fp4.py:297:20 ]
	v_or3_b32 v45, v45, v60, v47
	v_or3_b32 v8, v8, v65, v10
	v_cndmask_b32_e64 v9, v9, 0, s[30:31]
	v_or3_b32 v44, v44, v61, v46
	v_cndmask_b32_e64 v11, v45, 0, s[30:31]
	v_cndmask_b32_e64 v8, v8, 0, s[30:31]
	v_lshlrev_b16_e32 v9, 8, v9
	v_cndmask_b32_e64 v10, v44, 0, s[30:31]
	v_lshlrev_b16_e32 v11, 8, v11
	v_bitop3_b16 v8, v8, v9, s49 bitop3:0xec
	v_bitop3_b16 v10, v10, v11, s49 bitop3:0xec
	v_lshlrev_b32_e32 v8, 16, v8
	v_or_b32_sdwa v10, v8, v10 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	.loc	1 194 20 is_stmt 1              ; gemm_fused_fp4.py:194:20 @[ gemm_fused_fp4.py:297:20 ]
	v_add_u16_e32 v8, 0x7f, v70
	v_cndmask_b32_e64 v8, v8, -1, s[6:7]
.Ltmp56:
	.loc	1 210 53                        ; gemm_fused_fp4.py:210:53 @[ gemm_fused_fp4.py:298:13 ]
	s_lshl_b32 s6, s35, 11
	.loc	1 210 19 is_stmt 0              ; gemm_fused_fp4.py:210:19 @[ gemm_fused_fp4.py:298:13 ]
	s_add_i32 s6, s6, s39
	v_add_u32_e32 v11, s6, v13
	v_add_u32_e32 v44, s6, v15
	v_add_u32_e32 v45, s6, v21
	v_add_u32_e32 v46, s6, v22
	.loc	1 210 11                        ; gemm_fused_fp4.py:210:11 @[ gemm_fused_fp4.py:298:13 ]
	v_cndmask_b32_e64 v11, v27, v11, s[18:19]
	s_mov_b32 s6, s46
	s_mov_b32 s7, s47
	buffer_load_dwordx4 v[48:51], v11, s[4:7], 0 offen sc0 nt
	v_cndmask_b32_e64 v11, v27, v44, s[20:21]
	buffer_load_dwordx4 v[52:55], v11, s[4:7], 0 offen sc0 nt
	v_cndmask_b32_e64 v11, v27, v45, s[22:23]
	buffer_load_dwordx4 v[60:63], v11, s[4:7], 0 offen sc0 nt
	v_cndmask_b32_e64 v11, v27, v46, s[24:25]
	buffer_load_dwordx4 v[44:47], v11, s[4:7], 0 offen sc0 nt
	.loc	1 214 12 is_stmt 1              ; gemm_fused_fp4.py:214:12 @[ gemm_fused_fp4.py:298:13 ]
	s_barrier
	s_waitcnt vmcnt(3)
	ds_write_b128 v31, v[48:51]
	s_waitcnt vmcnt(2)
	ds_write_b128 v31, v[52:55] offset:512
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[52:55], v32
	ds_read_b128 v[56:59], v32 offset:2048
	s_waitcnt lgkmcnt(0)
	s_barrier
	s_waitcnt vmcnt(1)
	ds_write_b128 v31, v[60:63]
	s_waitcnt vmcnt(0)
	ds_write_b128 v31, v[44:47] offset:512
	v_add_u32_e32 v11, s42, v23
	v_add_u32_e32 v60, s42, v24
	v_add_u32_e32 v61, s42, v25
	v_add_u32_e32 v62, s42, v26
.Ltmp57:
	.loc	1 233 12                        ; gemm_fused_fp4.py:233:12 @[ gemm_fused_fp4.py:299:15 ]
	v_cndmask_b32_e32 v11, v27, v11, vcc
	s_mov_b32 s42, s46
	v_cndmask_b32_e64 v60, v27, v60, s[2:3]
	v_cndmask_b32_e64 v61, v27, v61, s[10:11]
	v_cndmask_b32_e64 v62, v27, v62, s[26:27]
.Ltmp58:
	.loc	1 214 12                        ; gemm_fused_fp4.py:214:12 @[ gemm_fused_fp4.py:298:13 ]
	s_waitcnt lgkmcnt(0)
	s_barrier
.Ltmp59:
	.loc	1 233 12                        ; gemm_fused_fp4.py:233:12 @[ gemm_fused_fp4.py:299:15 ]
	buffer_load_ubyte v11, v11, s[40:43], 0 offen
.Ltmp60:
	.loc	1 214 12                        ; gemm_fused_fp4.py:214:12 @[ gemm_fused_fp4.py:298:13 ]
	ds_read_b128 v[48:51], v32
	ds_read_b128 v[44:47], v32 offset:2048
.Ltmp61:
	.loc	1 233 12                        ; gemm_fused_fp4.py:233:12 @[ gemm_fused_fp4.py:299:15 ]
	buffer_load_ubyte v60, v60, s[40:43], 0 offen
.Ltmp62:
	.loc	1 194 20                        ; gemm_fused_fp4.py:194:20 @[ gemm_fused_fp4.py:297:20 ]
	v_add_u16_e32 v9, 0x7f, v67
.Ltmp63:
	.loc	1 233 12                        ; gemm_fused_fp4.py:233:12 @[ gemm_fused_fp4.py:299:15 ]
	buffer_load_ubyte v61, v61, s[40:43], 0 offen
.Ltmp64:
	.loc	1 194 20                        ; gemm_fused_fp4.py:194:20 @[ gemm_fused_fp4.py:297:20 ]
	v_cndmask_b32_e64 v9, v9, -1, s[30:31]
.Ltmp65:
	.loc	1 233 12                        ; gemm_fused_fp4.py:233:12 @[ gemm_fused_fp4.py:299:15 ]
	buffer_load_ubyte v62, v62, s[40:43], 0 offen
.Ltmp66:
	.loc	1 193 14                        ; gemm_fused_fp4.py:193:14 @[ gemm_fused_fp4.py:297:20 ]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_write_b32 v33, v43
	ds_write_b32 v34, v10 offset:1024
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b128 v[64:67], v35
	ds_read_b128 v[68:71], v36
	.loc	1 194 20                        ; gemm_fused_fp4.py:194:20 @[ gemm_fused_fp4.py:297:20 ]
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_write_b8 v37, v8
	ds_write_b8 v37, v9 offset:8
	s_waitcnt lgkmcnt(0)
	s_barrier
.Ltmp67:
	.loc	1 300 15                        ; gemm_fused_fp4.py:300:15
	ds_read_u8 v8, v38 offset:64
	ds_read_u8 v9, v38
.Ltmp68:
	.loc	1 233 12                        ; gemm_fused_fp4.py:233:12 @[ gemm_fused_fp4.py:299:15 ]
	s_waitcnt lgkmcnt(0)
	s_barrier
.Ltmp69:
	.loc	1 292 5                         ; gemm_fused_fp4.py:292:5
	s_add_i32 s35, s35, 1
	.loc	1 300 15                        ; gemm_fused_fp4.py:300:15
	v_perm_b32 v8, v9, v8, s53
	.loc	1 292 5                         ; gemm_fused_fp4.py:292:5
	s_cmp_lg_u32 s35, s38
.Ltmp70:
	.loc	1 233 12                        ; gemm_fused_fp4.py:233:12 @[ gemm_fused_fp4.py:299:15 ]
	s_waitcnt vmcnt(3)
	v_cndmask_b32_e32 v11, v28, v11, vcc
	s_waitcnt vmcnt(2)
	v_cndmask_b32_e64 v60, v28, v60, s[2:3]
	s_waitcnt vmcnt(1)
	v_cndmask_b32_e64 v61, v28, v61, s[10:11]
	v_lshlrev_b16_e32 v43, 8, v61
	s_waitcnt vmcnt(0)
	v_cndmask_b32_e64 v62, v28, v62, s[26:27]
	v_lshlrev_b16_e32 v10, 8, v62
	v_or_b32_sdwa v10, v60, v10 dst_sel:WORD_1 dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:DWORD
	v_or_b32_e32 v11, v11, v43
	v_or_b32_sdwa v10, v10, v11 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0
	ds_write_b32 v39, v10
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_u16 v10, v40
	ds_read_u16 v11, v41
.Ltmp71:
	.loc	1 300 15                        ; gemm_fused_fp4.py:300:15
	s_waitcnt lgkmcnt(0)
	v_perm_b32 v9, v10, v11, s54
	s_nop 1
	v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[52:55], v[64:67], v[0:3], v9, v8 op_sel_hi:[0,0,0] cbsz:4 blgp:4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[4:7], v[48:51], v[64:67], v[4:7], v9, v8 op_sel_hi:[1,0,0] cbsz:4 blgp:4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[0:3], v[56:59], v[68:71], v[0:3], v9, v8 op_sel:[1,1,0] op_sel_hi:[0,0,0] cbsz:4 blgp:4
	v_mfma_scale_f32_16x16x128_f8f6f4 v[4:7], v[44:47], v[68:71], v[4:7], v9, v8 op_sel:[1,1,0] op_sel_hi:[1,0,0] cbsz:4 blgp:4
	.loc	1 292 5                         ; gemm_fused_fp4.py:292:5
	s_cbranch_scc1 .LBB0_5
	s_branch .LBB0_7
.LBB0_6:
	.loc	1 0 5 is_stmt 0                 ; gemm_fused_fp4.py:0:5
	v_mov_b32_e32 v7, 0
	v_mov_b32_e32 v6, v7
	v_mov_b32_e32 v5, v7
	v_mov_b32_e32 v4, v7
	v_mov_b32_e32 v3, v7
	v_mov_b32_e32 v2, v7
	v_mov_b32_e32 v1, v7
	v_mov_b32_e32 v0, v7
.LBB0_7:                                ; %Flow31
	s_load_dword s20, s[0:1], 0x40
	s_load_dword s2, s[0:1], 0x48
	.loc	1 307 60 is_stmt 1              ; gemm_fused_fp4.py:307:60
	v_lshrrev_b32_e32 v8, 2, v17
	.loc	1 308 25                        ; gemm_fused_fp4.py:308:25
	s_lshl_b32 s0, s16, 11
	.loc	1 307 60                        ; gemm_fused_fp4.py:307:60
	v_and_b32_e32 v8, 60, v8
.Ltmp72:
	.loc	1 244 19                        ; gemm_fused_fp4.py:244:19 @[ gemm_fused_fp4.py:311:13 ]
	s_ashr_i32 s1, s0, 31
.Ltmp73:
	.loc	1 309 18                        ; gemm_fused_fp4.py:309:18
	v_or3_b32 v9, v20, v8, s0
	v_or3_b32 v8, s0, v20, v8
	.loc	1 309 9 is_stmt 0               ; gemm_fused_fp4.py:309:9
	s_and_b32 s5, s37, 0xffff
.Ltmp74:
	.loc	1 244 19 is_stmt 1              ; gemm_fused_fp4.py:244:19 @[ gemm_fused_fp4.py:311:13 ]
	s_lshl_b64 s[0:1], s[0:1], 2
.Ltmp75:
	.loc	1 309 9                         ; gemm_fused_fp4.py:309:9
	s_mov_b32 s7, 0x27000
	s_mov_b32 s6, 0x7ffffffe
	s_mov_b32 s4, s36
	v_lshlrev_b32_e32 v9, 2, v9
.Ltmp76:
	.loc	1 244 19                        ; gemm_fused_fp4.py:244:19 @[ gemm_fused_fp4.py:311:13 ]
	s_add_u32 s24, s36, s0
.Ltmp77:
	.loc	1 309 9                         ; gemm_fused_fp4.py:309:9
	buffer_store_dwordx4 v[0:3], v9, s[4:7], 0 offen
.Ltmp78:
	.loc	1 244 19                        ; gemm_fused_fp4.py:244:19 @[ gemm_fused_fp4.py:311:13 ]
	s_addc_u32 s0, s37, s1
	.loc	1 244 5 is_stmt 0               ; gemm_fused_fp4.py:244:5 @[ gemm_fused_fp4.py:311:13 ]
	s_and_b32 s25, s0, 0xffff
.Ltmp79:
	.loc	1 309 9 is_stmt 1               ; gemm_fused_fp4.py:309:9
	v_lshlrev_b32_e32 v0, 2, v8
	buffer_store_dwordx4 v[4:7], v0, s[4:7], 0 offen offset:256
.Ltmp80:
	.loc	1 244 5                         ; gemm_fused_fp4.py:244:5 @[ gemm_fused_fp4.py:311:13 ]
	s_mov_b32 s26, s6
	s_mov_b32 s27, s7
	v_mov_b32_e32 v0, 0
	s_waitcnt lgkmcnt(0)
	s_barrier
	buffer_wbl2 sc1
	s_waitcnt vmcnt(0)
	buffer_atomic_add v0, v19, s[24:27], 0 offen
.Ltmp81:
	.loc	1 253 12                        ; gemm_fused_fp4.py:253:12 @[ gemm_fused_fp4.py:314:12 ]
	s_ashr_i32 s3, s2, 31
	.loc	1 254 5                         ; gemm_fused_fp4.py:254:5 @[ gemm_fused_fp4.py:314:12 ]
	s_ashr_i32 s35, s34, 31
	.loc	1 253 12                        ; gemm_fused_fp4.py:253:12 @[ gemm_fused_fp4.py:314:12 ]
	s_lshl_b64 s[10:11], s[2:3], 20
	.loc	1 254 5                         ; gemm_fused_fp4.py:254:5 @[ gemm_fused_fp4.py:314:12 ]
	s_lshl_b64 s[0:1], s[34:35], 3
	s_add_u32 s2, s12, s0
	v_or_b32_e32 v0, s17, v18
	s_addc_u32 s3, s13, s1
	v_cmp_eq_u32_e64 s[0:1], 0, v0
.Ltmp82:
	.loc	1 313 9                         ; gemm_fused_fp4.py:313:9
	s_barrier
.Ltmp83:
	.loc	1 254 5                         ; gemm_fused_fp4.py:254:5 @[ gemm_fused_fp4.py:314:12 ]
	s_and_saveexec_b64 s[12:13], s[0:1]
	s_cbranch_execz .LBB0_10
; %bb.8:
	v_mbcnt_lo_u32_b32 v0, exec_lo, 0
	v_mbcnt_hi_u32_b32 v0, exec_hi, v0
	v_cmp_eq_u32_e32 vcc, 0, v0
	s_and_b64 exec, exec, vcc
	s_cbranch_execz .LBB0_10
; %bb.9:
	v_mov_b32_e32 v0, 0
	v_mov_b64_e32 v[2:3], s[10:11]
	global_atomic_smax_x2 v0, v[2:3], s[2:3]
.LBB0_10:
	.loc	1 0 5 is_stmt 0                 ; gemm_fused_fp4.py:0:5
	s_or_b64 exec, exec, s[12:13]
	.loc	1 255 11 is_stmt 1              ; gemm_fused_fp4.py:255:11 @[ gemm_fused_fp4.py:314:12 ]
	s_barrier
	.loc	1 254 5                         ; gemm_fused_fp4.py:254:5 @[ gemm_fused_fp4.py:314:12 ]
	s_and_saveexec_b64 s[12:13], s[0:1]
	s_cbranch_execz .LBB0_14
; %bb.11:
	s_mov_b64 s[18:19], exec
	v_mbcnt_lo_u32_b32 v0, s18, 0
	v_mbcnt_hi_u32_b32 v0, s19, v0
	v_cmp_eq_u32_e32 vcc, 0, v0
                                        ; implicit-def: $vgpr2_vgpr3
	s_and_saveexec_b64 s[16:17], vcc
	s_cbranch_execz .LBB0_13
; %bb.12:
	s_bcnt1_i32_b64 s4, s[18:19]
	v_mov_b32_e32 v2, s4
	v_mov_b32_e32 v3, 0
	buffer_wbl2 sc1
	s_waitcnt vmcnt(0)
	global_atomic_add_x2 v[2:3], v3, v[2:3], s[2:3] sc0
	s_waitcnt vmcnt(0)
	buffer_inv sc1
.LBB0_13:
	.loc	1 0 5 is_stmt 0                 ; gemm_fused_fp4.py:0:5
	s_or_b64 exec, exec, s[16:17]
	.loc	1 254 5                         ; gemm_fused_fp4.py:254:5 @[ gemm_fused_fp4.py:314:12 ]
	v_readfirstlane_b32 s17, v3
	v_readfirstlane_b32 s16, v2
	v_mov_b32_e32 v1, 0
	s_nop 0
	v_lshl_add_u64 v[2:3], s[16:17], 0, v[0:1]
	.loc	1 255 11 is_stmt 1              ; gemm_fused_fp4.py:255:11 @[ gemm_fused_fp4.py:314:12 ]
	ds_write_b64 v1, v[2:3]
.LBB0_14:                               ; %Flow27
	.loc	1 0 11 is_stmt 0                ; gemm_fused_fp4.py:0:11
	s_or_b64 exec, exec, s[12:13]
	.loc	1 255 11 is_stmt 1              ; gemm_fused_fp4.py:255:11 @[ gemm_fused_fp4.py:314:12 ]
	v_mov_b32_e32 v0, 0
	s_waitcnt lgkmcnt(0)
	s_barrier
	ds_read_b64 v[0:1], v0
	.loc	1 256 19                        ; gemm_fused_fp4.py:256:19 @[ gemm_fused_fp4.py:314:12 ]
	s_or_b32 s10, s10, 14
	.loc	1 256 12 is_stmt 0              ; gemm_fused_fp4.py:256:12 @[ gemm_fused_fp4.py:314:12 ]
	s_waitcnt lgkmcnt(0)
	v_cmp_ne_u64_e32 vcc, s[10:11], v[0:1]
	s_cbranch_vccnz .LBB0_18
; %bb.15:
	.loc	1 254 5 is_stmt 1               ; gemm_fused_fp4.py:254:5 @[ gemm_fused_fp4.py:314:12 ]
	s_and_saveexec_b64 s[10:11], s[0:1]
	s_cbranch_execz .LBB0_17
; %bb.16:
	v_mov_b32_e32 v2, 0
	v_mov_b64_e32 v[0:1], 0
	global_atomic_swap_x2 v2, v[0:1], s[2:3]
.Ltmp84:
.LBB0_17:
	.loc	1 0 5 is_stmt 0                 ; gemm_fused_fp4.py:0:5
	s_or_b64 exec, exec, s[10:11]
	.loc	1 281 28 is_stmt 1              ; gemm_fused_fp4.py:281:28
	v_lshrrev_b32_e32 v88, 4, v17
	.loc	1 282 28                        ; gemm_fused_fp4.py:282:28
	v_lshlrev_b32_e32 v89, 3, v16
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_lshl_or_b32 v80, v88, 7, v89
	.loc	1 318 43 is_stmt 0              ; gemm_fused_fp4.py:318:43
	s_mul_i32 s0, s34, 0x7800
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v90, 4, v80
	v_or_b32_e32 v0, s0, v80
	v_or_b32_e32 v4, s0, v90
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s1, s0, 0x800
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v0, 2, v0
	s_mov_b32 s37, s5
	s_mov_b32 s38, s6
	s_mov_b32 s39, s7
	v_lshlrev_b32_e32 v28, 2, v4
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v4, s1, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s2, s0, 0x1000
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[0:3], v0, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v4, 2, v4
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v8, s2, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s3, s0, 0x1800
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[4:7], v4, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v8, 2, v8
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v12, s3, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s4, s0, 0x2000
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[8:11], v8, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v12, 2, v12
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v16, s4, v80
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[12:15], v12, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v16, 2, v16
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s5, s0, 0x2800
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[16:19], v16, s[36:39], 0 offen sc0 nt
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v20, s5, v80
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v29, 2, v20
	buffer_load_dwordx4 v[20:23], v29, s[36:39], 0 offen sc0 nt
	buffer_load_dwordx4 v[24:27], v28, s[36:39], 0 offen sc0 nt
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v28, s1, v90
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v28, 2, v28
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v32, s2, v90
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[28:31], v28, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v32, 2, v32
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v36, s3, v90
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[32:35], v32, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v36, 2, v36
	buffer_load_dwordx4 v[36:39], v36, s[36:39], 0 offen sc0 nt
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s1, s0, 0x3000
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v40, s4, v90
	v_or_b32_e32 v44, s5, v90
	v_or_b32_e32 v48, s1, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s2, s0, 0x3800
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v40, 2, v40
	v_lshlrev_b32_e32 v44, 2, v44
	v_lshlrev_b32_e32 v48, 2, v48
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v52, s2, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s3, s0, 0x4000
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[40:43], v40, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v52, 2, v52
	buffer_load_dwordx4 v[44:47], v44, s[36:39], 0 offen sc0 nt
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v56, s3, v80
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[48:51], v48, s[36:39], 0 offen sc0 nt
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s4, s0, 0x4800
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[52:55], v52, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v56, 2, v56
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v60, s4, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s5, s0, 0x5000
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[56:59], v56, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v60, 2, v60
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v64, s5, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s6, s0, 0x5800
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[60:63], v60, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v64, 2, v64
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v68, s6, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s7, s0, 0x6000
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[64:67], v64, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v68, 2, v68
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v72, s7, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_add_i32 s10, s0, 0x6800
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[68:71], v68, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v72, 2, v72
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v76, s10, v80
	.loc	1 318 43                        ; gemm_fused_fp4.py:318:43
	s_addk_i32 s0, 0x7000
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[72:75], v72, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v76, 2, v76
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v80, s0, v80
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[76:79], v76, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v80, 2, v80
	buffer_load_dwordx4 v[80:83], v80, s[36:39], 0 offen sc0 nt
	.loc	1 281 10 is_stmt 1              ; gemm_fused_fp4.py:281:10
	v_or_b32_e32 v88, s33, v88
	.loc	1 282 10                        ; gemm_fused_fp4.py:282:10
	v_or_b32_e32 v89, s48, v89
	.loc	1 287 15                        ; gemm_fused_fp4.py:287:15
	v_cmp_gt_i32_e32 vcc, s15, v89
	.loc	1 319 13                        ; gemm_fused_fp4.py:319:13
	s_and_b32 s9, s9, 0xffff
	s_mov_b32 s11, 0x27000
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(20)
	v_pk_add_f32 v[0:1], v[0:1], 0 op_sel_hi:[1,0]
	s_waitcnt vmcnt(19)
	v_pk_add_f32 v[0:1], v[0:1], v[4:5]
	.loc	1 318 34 is_stmt 0              ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v4, s2, v90
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v4, 2, v4
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(18)
	v_pk_add_f32 v[0:1], v[0:1], v[8:9]
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v8, s3, v90
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v8, 2, v8
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(17)
	v_pk_add_f32 v[0:1], v[0:1], v[12:13]
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v12, s4, v90
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v12, 2, v12
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(16)
	v_pk_add_f32 v[0:1], v[0:1], v[16:17]
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v16, s5, v90
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(15)
	v_pk_add_f32 v[84:85], v[0:1], v[20:21]
	v_pk_add_f32 v[0:1], v[2:3], 0 op_sel_hi:[1,0]
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v16, 2, v16
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[0:1], v[0:1], v[6:7]
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[4:7], v4, s[36:39], 0 offen sc0 nt
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[0:1], v[0:1], v[10:11]
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[8:11], v8, s[36:39], 0 offen sc0 nt
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[0:1], v[0:1], v[14:15]
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[12:15], v12, s[36:39], 0 offen sc0 nt
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[0:1], v[0:1], v[18:19]
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v20, s6, v90
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[86:87], v[0:1], v[22:23]
	s_waitcnt vmcnt(17)
	v_pk_add_f32 v[0:1], v[24:25], 0 op_sel_hi:[1,0]
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[16:19], v16, s[36:39], 0 offen sc0 nt
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(17)
	v_pk_add_f32 v[0:1], v[0:1], v[28:29]
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v20, 2, v20
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(16)
	v_pk_add_f32 v[0:1], v[0:1], v[32:33]
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v24, s7, v90
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(15)
	v_pk_add_f32 v[36:37], v[0:1], v[36:37]
	v_pk_add_f32 v[0:1], v[26:27], 0 op_sel_hi:[1,0]
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[20:23], v20, s[36:39], 0 offen sc0 nt
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[0:1], v[0:1], v[30:31]
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v24, 2, v24
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[0:1], v[0:1], v[34:35]
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v28, s10, v90
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[38:39], v[0:1], v[38:39]
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v0, s1, v90
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	v_lshlrev_b32_e32 v0, 2, v0
	buffer_load_dwordx4 v[0:3], v0, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v28, 2, v28
	buffer_load_dwordx4 v[24:27], v24, s[36:39], 0 offen sc0 nt
	.loc	1 318 34                        ; gemm_fused_fp4.py:318:34
	v_or_b32_e32 v32, s0, v90
	.loc	1 318 26                        ; gemm_fused_fp4.py:318:26
	buffer_load_dwordx4 v[28:31], v28, s[36:39], 0 offen sc0 nt
	v_lshlrev_b32_e32 v32, 2, v32
	buffer_load_dwordx4 v[32:35], v32, s[36:39], 0 offen sc0 nt
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(19)
	v_pk_add_f32 v[36:37], v[36:37], v[40:41]
	s_waitcnt vmcnt(17)
	v_pk_add_f32 v[40:41], v[84:85], v[48:49]
	v_pk_add_f32 v[38:39], v[38:39], v[42:43]
	s_waitcnt vmcnt(16)
	v_pk_add_f32 v[40:41], v[40:41], v[52:53]
.Ltmp85:
	.loc	1 146 30 is_stmt 1              ; gemm_fused_fp4.py:146:30 @[ gemm_fused_fp4.py:319:37 ]
	v_mov_b32_e32 v43, 1
.Ltmp86:
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(15)
	v_pk_add_f32 v[40:41], v[40:41], v[56:57]
	v_pk_add_f32 v[36:37], v[36:37], v[44:45]
	s_waitcnt vmcnt(14)
	v_pk_add_f32 v[40:41], v[40:41], v[60:61]
.Ltmp87:
	.loc	1 146 16                        ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	s_movk_i32 s4, 0x7fff
.Ltmp88:
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(13)
	v_pk_add_f32 v[40:41], v[40:41], v[64:65]
	v_pk_add_f32 v[38:39], v[38:39], v[46:47]
	s_waitcnt vmcnt(12)
	v_pk_add_f32 v[40:41], v[40:41], v[68:69]
.Ltmp89:
	.loc	1 147 21                        ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	s_mov_b32 s5, 0x7f800000
.Ltmp90:
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(11)
	v_pk_add_f32 v[40:41], v[40:41], v[72:73]
.Ltmp91:
	.loc	1 148 13                        ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_mov_b32_e32 v48, 64
.Ltmp92:
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(10)
	v_pk_add_f32 v[40:41], v[40:41], v[76:77]
	.loc	1 303 15                        ; gemm_fused_fp4.py:303:15
	v_cmp_gt_i32_e64 s[0:1], s14, v88
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	s_waitcnt vmcnt(9)
	v_pk_add_f32 v[40:41], v[40:41], v[80:81]
	.loc	1 319 22                        ; gemm_fused_fp4.py:319:22
	v_mul_lo_u32 v42, v88, s20
.Ltmp93:
	.loc	1 146 30                        ; gemm_fused_fp4.py:146:30 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_sdwa v44, sext(v41), v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	v_and_b32_sdwa v45, sext(v40), v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 146 16 is_stmt 0              ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	v_add3_u32 v44, v41, v44, s4
	.loc	1 147 22 is_stmt 1              ; gemm_fused_fp4.py:147:22 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_e32 v46, 0x7fffffff, v41
	.loc	1 146 16                        ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	v_add3_u32 v45, v40, v45, s4
	.loc	1 146 15 is_stmt 0              ; gemm_fused_fp4.py:146:15 @[ gemm_fused_fp4.py:319:37 ]
	v_lshrrev_b32_e32 v44, 16, v44
	.loc	1 147 22 is_stmt 1              ; gemm_fused_fp4.py:147:22 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_e32 v47, 0x7fffffff, v40
	.loc	1 148 13                        ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_or_b32_sdwa v41, sext(v41), v48 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 147 21                        ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	v_cmp_lt_u32_e64 s[2:3], s5, v46
	.loc	1 146 15                        ; gemm_fused_fp4.py:146:15 @[ gemm_fused_fp4.py:319:37 ]
	v_lshrrev_b32_e32 v45, 16, v45
	.loc	1 148 13                        ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_or_b32_sdwa v40, sext(v40), v48 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 147 12                        ; gemm_fused_fp4.py:147:12 @[ gemm_fused_fp4.py:319:37 ]
	v_cndmask_b32_e64 v44, v44, v41, s[2:3]
	.loc	1 147 21 is_stmt 0              ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	v_cmp_lt_u32_e64 s[2:3], s5, v47
.Ltmp94:
	.loc	1 303 14 is_stmt 1              ; gemm_fused_fp4.py:303:14
	s_and_b64 vcc, vcc, s[0:1]
	.loc	1 319 13                        ; gemm_fused_fp4.py:319:13
	s_mov_b32 s10, 0x7ffffffe
.Ltmp95:
	.loc	1 147 12                        ; gemm_fused_fp4.py:147:12 @[ gemm_fused_fp4.py:319:37 ]
	v_cndmask_b32_e64 v45, v45, v40, s[2:3]
.Ltmp96:
	.loc	1 318 17                        ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[40:41], v[86:87], v[50:51]
	s_waitcnt vmcnt(3)
	v_pk_add_f32 v[0:1], v[36:37], v[0:1]
	v_pk_add_f32 v[40:41], v[40:41], v[54:55]
	v_pk_add_f32 v[0:1], v[0:1], v[4:5]
	v_pk_add_f32 v[40:41], v[40:41], v[58:59]
	v_pk_add_f32 v[0:1], v[0:1], v[8:9]
	v_pk_add_f32 v[40:41], v[40:41], v[62:63]
	v_pk_add_f32 v[0:1], v[0:1], v[12:13]
	v_pk_add_f32 v[40:41], v[40:41], v[66:67]
	v_pk_add_f32 v[0:1], v[0:1], v[16:17]
	v_pk_add_f32 v[40:41], v[40:41], v[70:71]
	v_pk_add_f32 v[0:1], v[0:1], v[20:21]
	v_pk_add_f32 v[40:41], v[40:41], v[74:75]
	s_waitcnt vmcnt(2)
	v_pk_add_f32 v[0:1], v[0:1], v[24:25]
	v_pk_add_f32 v[40:41], v[40:41], v[78:79]
	s_waitcnt vmcnt(1)
	v_pk_add_f32 v[0:1], v[0:1], v[28:29]
	v_pk_add_f32 v[40:41], v[40:41], v[82:83]
	s_waitcnt vmcnt(0)
	v_pk_add_f32 v[0:1], v[0:1], v[32:33]
.Ltmp97:
	.loc	1 146 30                        ; gemm_fused_fp4.py:146:30 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_sdwa v46, sext(v41), v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	v_and_b32_sdwa v47, sext(v40), v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 146 16 is_stmt 0              ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	v_add3_u32 v46, v41, v46, s4
	.loc	1 147 22 is_stmt 1              ; gemm_fused_fp4.py:147:22 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_e32 v49, 0x7fffffff, v41
	.loc	1 146 16                        ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	v_add3_u32 v47, v40, v47, s4
	.loc	1 146 15 is_stmt 0              ; gemm_fused_fp4.py:146:15 @[ gemm_fused_fp4.py:319:37 ]
	v_lshrrev_b32_e32 v46, 16, v46
	.loc	1 147 22 is_stmt 1              ; gemm_fused_fp4.py:147:22 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_e32 v50, 0x7fffffff, v40
	.loc	1 148 13                        ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_or_b32_sdwa v41, sext(v41), v48 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 147 21                        ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	v_cmp_lt_u32_e64 s[2:3], s5, v49
	.loc	1 146 30                        ; gemm_fused_fp4.py:146:30 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_sdwa v4, sext(v1), v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 146 15 is_stmt 0              ; gemm_fused_fp4.py:146:15 @[ gemm_fused_fp4.py:319:37 ]
	v_lshrrev_b32_e32 v47, 16, v47
	.loc	1 148 13 is_stmt 1              ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_or_b32_sdwa v40, sext(v40), v48 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 147 12                        ; gemm_fused_fp4.py:147:12 @[ gemm_fused_fp4.py:319:37 ]
	v_cndmask_b32_e64 v41, v46, v41, s[2:3]
	.loc	1 147 21 is_stmt 0              ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	v_cmp_lt_u32_e64 s[2:3], s5, v50
	.loc	1 146 30 is_stmt 1              ; gemm_fused_fp4.py:146:30 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_sdwa v5, sext(v0), v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 146 16 is_stmt 0              ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	v_add3_u32 v4, v1, v4, s4
	.loc	1 147 22 is_stmt 1              ; gemm_fused_fp4.py:147:22 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_e32 v8, 0x7fffffff, v1
	.loc	1 147 12 is_stmt 0              ; gemm_fused_fp4.py:147:12 @[ gemm_fused_fp4.py:319:37 ]
	v_cndmask_b32_e64 v40, v47, v40, s[2:3]
	.loc	1 146 16 is_stmt 1              ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	v_add3_u32 v5, v0, v5, s4
	.loc	1 146 15 is_stmt 0              ; gemm_fused_fp4.py:146:15 @[ gemm_fused_fp4.py:319:37 ]
	v_lshrrev_b32_e32 v4, 16, v4
	.loc	1 147 22 is_stmt 1              ; gemm_fused_fp4.py:147:22 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_e32 v9, 0x7fffffff, v0
	.loc	1 148 13                        ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_or_b32_sdwa v1, sext(v1), v48 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 147 21                        ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	v_cmp_lt_u32_e64 s[2:3], s5, v8
	.loc	1 146 15                        ; gemm_fused_fp4.py:146:15 @[ gemm_fused_fp4.py:319:37 ]
	v_lshrrev_b32_e32 v5, 16, v5
	.loc	1 148 13                        ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_or_b32_sdwa v0, sext(v0), v48 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 147 12                        ; gemm_fused_fp4.py:147:12 @[ gemm_fused_fp4.py:319:37 ]
	v_cndmask_b32_e64 v4, v4, v1, s[2:3]
	.loc	1 147 21 is_stmt 0              ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	v_cmp_lt_u32_e64 s[2:3], s5, v9
	.loc	1 147 12                        ; gemm_fused_fp4.py:147:12 @[ gemm_fused_fp4.py:319:37 ]
	s_nop 1
	v_cndmask_b32_e64 v5, v5, v0, s[2:3]
.Ltmp98:
	.loc	1 318 17 is_stmt 1              ; gemm_fused_fp4.py:318:17
	v_pk_add_f32 v[0:1], v[38:39], v[2:3]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[6:7]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[10:11]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[14:15]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[18:19]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[22:23]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[26:27]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[30:31]
	s_nop 0
	v_pk_add_f32 v[0:1], v[0:1], v[34:35]
.Ltmp99:
	.loc	1 146 30                        ; gemm_fused_fp4.py:146:30 @[ gemm_fused_fp4.py:319:37 ]
	s_nop 0
	v_and_b32_sdwa v2, sext(v1), v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	v_and_b32_sdwa v3, sext(v0), v43 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 146 16 is_stmt 0              ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	v_add3_u32 v2, v1, v2, s4
	.loc	1 147 22 is_stmt 1              ; gemm_fused_fp4.py:147:22 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_e32 v6, 0x7fffffff, v1
	.loc	1 146 16                        ; gemm_fused_fp4.py:146:16 @[ gemm_fused_fp4.py:319:37 ]
	v_add3_u32 v3, v0, v3, s4
	.loc	1 146 15 is_stmt 0              ; gemm_fused_fp4.py:146:15 @[ gemm_fused_fp4.py:319:37 ]
	v_lshrrev_b32_e32 v2, 16, v2
	.loc	1 147 22 is_stmt 1              ; gemm_fused_fp4.py:147:22 @[ gemm_fused_fp4.py:319:37 ]
	v_and_b32_e32 v7, 0x7fffffff, v0
	.loc	1 148 13                        ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_or_b32_sdwa v1, sext(v1), v48 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 147 21                        ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	v_cmp_lt_u32_e64 s[2:3], s5, v6
	.loc	1 146 15                        ; gemm_fused_fp4.py:146:15 @[ gemm_fused_fp4.py:319:37 ]
	v_lshrrev_b32_e32 v3, 16, v3
	.loc	1 148 13                        ; gemm_fused_fp4.py:148:13 @[ gemm_fused_fp4.py:319:37 ]
	v_or_b32_sdwa v0, sext(v0), v48 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:WORD_1 src1_sel:DWORD
	.loc	1 147 12                        ; gemm_fused_fp4.py:147:12 @[ gemm_fused_fp4.py:319:37 ]
	v_cndmask_b32_e64 v2, v2, v1, s[2:3]
	.loc	1 147 21 is_stmt 0              ; gemm_fused_fp4.py:147:21 @[ gemm_fused_fp4.py:319:37 ]
	v_cmp_lt_u32_e64 s[2:3], s5, v7
	.loc	1 147 12                        ; gemm_fused_fp4.py:147:12 @[ gemm_fused_fp4.py:319:37 ]
	s_nop 1
	v_cndmask_b32_e64 v0, v3, v0, s[2:3]
.Ltmp100:
	.loc	1 319 13 is_stmt 1              ; gemm_fused_fp4.py:319:13
	s_mov_b32 s2, 0x5040100
	v_perm_b32 v3, v2, v0, s2
	v_perm_b32 v2, v4, v5, s2
	v_add_lshl_u32 v4, v89, v42, 1
	v_bfrev_b32_e32 v5, 1
	v_perm_b32 v1, v41, v40, s2
	v_perm_b32 v0, v44, v45, s2
	v_cndmask_b32_e32 v4, v5, v4, vcc
	buffer_store_dwordx4 v[0:3], v4, s[8:11], 0 offen
.LBB0_18:
	.loc	1 264 1                         ; gemm_fused_fp4.py:264:1
	s_endpgm
.Ltmp101:
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
		.amdhsa_next_free_sgpr 55
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
	.set .L_fp4_gemm_kernel.numbered_sgpr, 55
	.set .L_fp4_gemm_kernel.num_named_barrier, 0
	.set .L_fp4_gemm_kernel.private_seg_size, 0
	.set .L_fp4_gemm_kernel.uses_vcc, 1
	.set .L_fp4_gemm_kernel.uses_flat_scratch, 0
	.set .L_fp4_gemm_kernel.has_dyn_sized_stack, 0
	.set .L_fp4_gemm_kernel.has_recursion, 0
	.set .L_fp4_gemm_kernel.has_indirect_call, 0
	.section	.AMDGPU.csdata,"",@progbits
; Kernel info:
; codeLenInByte = 6172
; TotalNumSgprs: 61
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
; NumSGPRsForWavesPerEU: 61
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
	.byte	5                               ; DW_FORM_data2
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
	.byte	1                               ; DW_CHILDREN_yes
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
	.byte	8                               ; Abbreviation Code
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
	.byte	0                               ; EOM(3)
	.section	.debug_info,"",@progbits
.Lcu_begin0:
	.long	.Ldebug_info_end0-.Ldebug_info_start0 ; Length of Unit
.Ldebug_info_start0:
	.short	4                               ; DWARF version number
	.long	.debug_abbrev                   ; Offset Into Abbrev. Section
	.byte	8                               ; Address Size (in bytes)
	.byte	1                               ; Abbrev [1] 0xb:0xd7 DW_TAG_compile_unit
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
	.byte	3                               ; Abbrev [3] 0x30:0xb1 DW_TAG_subprogram
	.quad	.Lfunc_begin0                   ; DW_AT_low_pc
	.long	.Lfunc_end0-.Lfunc_begin0       ; DW_AT_high_pc
	.long	42                              ; DW_AT_abstract_origin
	.byte	4                               ; Abbrev [4] 0x41:0x15 DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.quad	.Ltmp1                          ; DW_AT_low_pc
	.long	.Ltmp2-.Ltmp1                   ; DW_AT_high_pc
	.byte	1                               ; DW_AT_call_file
	.short	272                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	4                               ; Abbrev [4] 0x56:0x15 DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.quad	.Ltmp3                          ; DW_AT_low_pc
	.long	.Ltmp4-.Ltmp3                   ; DW_AT_high_pc
	.byte	1                               ; DW_AT_call_file
	.short	277                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0x6b:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges0                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	314                             ; DW_AT_call_line
	.byte	12                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0x78:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges1                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	298                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0x85:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges2                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	299                             ; DW_AT_call_line
	.byte	15                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0x92:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges3                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	297                             ; DW_AT_call_line
	.byte	34                              ; DW_AT_call_column
	.byte	6                               ; Abbrev [6] 0x9f:0x27 DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges4                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	297                             ; DW_AT_call_line
	.byte	20                              ; DW_AT_call_column
	.byte	7                               ; Abbrev [7] 0xac:0x19 DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges5                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.byte	172                             ; DW_AT_call_line
	.byte	12                              ; DW_AT_call_column
	.byte	8                               ; Abbrev [8] 0xb8:0xc DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges5                 ; DW_AT_ranges
	.byte	2                               ; DW_AT_call_file
	.byte	216                             ; DW_AT_call_line
	.byte	16                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
	.byte	5                               ; Abbrev [5] 0xc6:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges6                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	311                             ; DW_AT_call_line
	.byte	13                              ; DW_AT_call_column
	.byte	5                               ; Abbrev [5] 0xd3:0xd DW_TAG_inlined_subroutine
	.long	42                              ; DW_AT_abstract_origin
	.long	.Ldebug_ranges7                 ; DW_AT_ranges
	.byte	1                               ; DW_AT_call_file
	.short	319                             ; DW_AT_call_line
	.byte	37                              ; DW_AT_call_column
	.byte	0                               ; End Of Children Mark
	.byte	0                               ; End Of Children Mark
.Ldebug_info_end0:
	.section	.debug_ranges,"",@progbits
.Ldebug_ranges0:
	.quad	.Ltmp5-.Lfunc_begin0
	.quad	.Ltmp6-.Lfunc_begin0
	.quad	.Ltmp81-.Lfunc_begin0
	.quad	.Ltmp82-.Lfunc_begin0
	.quad	.Ltmp83-.Lfunc_begin0
	.quad	.Ltmp84-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges1:
	.quad	.Ltmp7-.Lfunc_begin0
	.quad	.Ltmp8-.Lfunc_begin0
	.quad	.Ltmp9-.Lfunc_begin0
	.quad	.Ltmp10-.Lfunc_begin0
	.quad	.Ltmp11-.Lfunc_begin0
	.quad	.Ltmp12-.Lfunc_begin0
	.quad	.Ltmp13-.Lfunc_begin0
	.quad	.Ltmp14-.Lfunc_begin0
	.quad	.Ltmp15-.Lfunc_begin0
	.quad	.Ltmp16-.Lfunc_begin0
	.quad	.Ltmp17-.Lfunc_begin0
	.quad	.Ltmp18-.Lfunc_begin0
	.quad	.Ltmp19-.Lfunc_begin0
	.quad	.Ltmp20-.Lfunc_begin0
	.quad	.Ltmp21-.Lfunc_begin0
	.quad	.Ltmp22-.Lfunc_begin0
	.quad	.Ltmp56-.Lfunc_begin0
	.quad	.Ltmp57-.Lfunc_begin0
	.quad	.Ltmp58-.Lfunc_begin0
	.quad	.Ltmp59-.Lfunc_begin0
	.quad	.Ltmp60-.Lfunc_begin0
	.quad	.Ltmp61-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges2:
	.quad	.Ltmp23-.Lfunc_begin0
	.quad	.Ltmp24-.Lfunc_begin0
	.quad	.Ltmp57-.Lfunc_begin0
	.quad	.Ltmp58-.Lfunc_begin0
	.quad	.Ltmp59-.Lfunc_begin0
	.quad	.Ltmp60-.Lfunc_begin0
	.quad	.Ltmp61-.Lfunc_begin0
	.quad	.Ltmp62-.Lfunc_begin0
	.quad	.Ltmp63-.Lfunc_begin0
	.quad	.Ltmp64-.Lfunc_begin0
	.quad	.Ltmp65-.Lfunc_begin0
	.quad	.Ltmp66-.Lfunc_begin0
	.quad	.Ltmp68-.Lfunc_begin0
	.quad	.Ltmp69-.Lfunc_begin0
	.quad	.Ltmp70-.Lfunc_begin0
	.quad	.Ltmp71-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges3:
	.quad	.Ltmp24-.Lfunc_begin0
	.quad	.Ltmp25-.Lfunc_begin0
	.quad	.Ltmp26-.Lfunc_begin0
	.quad	.Ltmp27-.Lfunc_begin0
	.quad	.Ltmp28-.Lfunc_begin0
	.quad	.Ltmp29-.Lfunc_begin0
	.quad	.Ltmp32-.Lfunc_begin0
	.quad	.Ltmp33-.Lfunc_begin0
	.quad	.Ltmp41-.Lfunc_begin0
	.quad	.Ltmp42-.Lfunc_begin0
	.quad	.Ltmp43-.Lfunc_begin0
	.quad	.Ltmp44-.Lfunc_begin0
	.quad	.Ltmp47-.Lfunc_begin0
	.quad	.Ltmp48-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges4:
	.quad	.Ltmp25-.Lfunc_begin0
	.quad	.Ltmp26-.Lfunc_begin0
	.quad	.Ltmp27-.Lfunc_begin0
	.quad	.Ltmp28-.Lfunc_begin0
	.quad	.Ltmp29-.Lfunc_begin0
	.quad	.Ltmp32-.Lfunc_begin0
	.quad	.Ltmp33-.Lfunc_begin0
	.quad	.Ltmp41-.Lfunc_begin0
	.quad	.Ltmp42-.Lfunc_begin0
	.quad	.Ltmp43-.Lfunc_begin0
	.quad	.Ltmp44-.Lfunc_begin0
	.quad	.Ltmp47-.Lfunc_begin0
	.quad	.Ltmp48-.Lfunc_begin0
	.quad	.Ltmp56-.Lfunc_begin0
	.quad	.Ltmp62-.Lfunc_begin0
	.quad	.Ltmp63-.Lfunc_begin0
	.quad	.Ltmp64-.Lfunc_begin0
	.quad	.Ltmp65-.Lfunc_begin0
	.quad	.Ltmp66-.Lfunc_begin0
	.quad	.Ltmp67-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges5:
	.quad	.Ltmp30-.Lfunc_begin0
	.quad	.Ltmp31-.Lfunc_begin0
	.quad	.Ltmp33-.Lfunc_begin0
	.quad	.Ltmp34-.Lfunc_begin0
	.quad	.Ltmp35-.Lfunc_begin0
	.quad	.Ltmp36-.Lfunc_begin0
	.quad	.Ltmp37-.Lfunc_begin0
	.quad	.Ltmp38-.Lfunc_begin0
	.quad	.Ltmp39-.Lfunc_begin0
	.quad	.Ltmp40-.Lfunc_begin0
	.quad	.Ltmp45-.Lfunc_begin0
	.quad	.Ltmp46-.Lfunc_begin0
	.quad	.Ltmp48-.Lfunc_begin0
	.quad	.Ltmp49-.Lfunc_begin0
	.quad	.Ltmp50-.Lfunc_begin0
	.quad	.Ltmp51-.Lfunc_begin0
	.quad	.Ltmp52-.Lfunc_begin0
	.quad	.Ltmp53-.Lfunc_begin0
	.quad	.Ltmp54-.Lfunc_begin0
	.quad	.Ltmp55-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges6:
	.quad	.Ltmp72-.Lfunc_begin0
	.quad	.Ltmp73-.Lfunc_begin0
	.quad	.Ltmp74-.Lfunc_begin0
	.quad	.Ltmp75-.Lfunc_begin0
	.quad	.Ltmp76-.Lfunc_begin0
	.quad	.Ltmp77-.Lfunc_begin0
	.quad	.Ltmp78-.Lfunc_begin0
	.quad	.Ltmp79-.Lfunc_begin0
	.quad	.Ltmp80-.Lfunc_begin0
	.quad	.Ltmp81-.Lfunc_begin0
	.quad	0
	.quad	0
.Ldebug_ranges7:
	.quad	.Ltmp85-.Lfunc_begin0
	.quad	.Ltmp86-.Lfunc_begin0
	.quad	.Ltmp87-.Lfunc_begin0
	.quad	.Ltmp88-.Lfunc_begin0
	.quad	.Ltmp89-.Lfunc_begin0
	.quad	.Ltmp90-.Lfunc_begin0
	.quad	.Ltmp91-.Lfunc_begin0
	.quad	.Ltmp92-.Lfunc_begin0
	.quad	.Ltmp93-.Lfunc_begin0
	.quad	.Ltmp94-.Lfunc_begin0
	.quad	.Ltmp95-.Lfunc_begin0
	.quad	.Ltmp96-.Lfunc_begin0
	.quad	.Ltmp97-.Lfunc_begin0
	.quad	.Ltmp98-.Lfunc_begin0
	.quad	.Ltmp99-.Lfunc_begin0
	.quad	.Ltmp100-.Lfunc_begin0
	.quad	0
	.quad	0
	.section	.debug_str,"MS",@progbits,1
.Linfo_string0:
	.asciz	"triton"                        ; string offset=0 ; triton
.Linfo_string1:
	.asciz	"gemm_fused_fp4.py"             ; string offset=7 ; gemm_fused_fp4.py
.Linfo_string2:
	.asciz	"mxlib/kernels"    ; string offset=25 ; mxlib/kernels
.Linfo_string3:
	.asciz	"_fp4_gemm_kernel"              ; string offset=52 ; _fp4_gemm_kernel
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
    .sgpr_count:     61
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
