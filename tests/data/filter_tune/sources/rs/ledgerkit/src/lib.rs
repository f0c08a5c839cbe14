            //! Ledger arithmetic in integer cents.

            /// The sum of all entries.
            pub fn balance(entries: &[i64]) -> i64 {
                entries.iter().sum()
            }

            /// Round cents to the nearest multiple of `step`.
            pub fn round_to(cents: i64, step: i64) -> i64 {
                let rest = cents % step;
                if rest * 2 >= step { cents - rest + step } else { cents - rest }
            }

            /// Split an amount into `parts` shares.
            pub fn split(amount: u64, parts: u64) -> Vec<u64> {
                let share = amount / parts;
                let mut out = vec![share; parts as usize];
                out[0] += amount - share * parts;
                out
            }

            pub fn ratio(a: u64, b: u64) -> f32 {
                a as f32 / b as f32
            }

            pub fn as_index(n: i64) -> usize {
                n as usize
            }

            #[cfg(test)]
            mod tests {
                use super::*;

                #[test]
                fn rounding_half_up() {
                    println!("round_to(125, 10) = {}", round_to(125, 10));
                    assert_eq!(round_to(125, 10), 130);
                }

                #[test]
                fn rounding_negative() {
                    println!("round_to(-125, 10) = {}", round_to(-125, 10));
                    assert_eq!(round_to(-125, 10), -130);
                }

                #[test]
                fn split_remainder_goes_last() {
                    assert_eq!(split(100, 3), vec![33, 33, 34]);
                }

                #[test]
    fn balance_001() {
        assert_eq!(balance(&[1, 2, -1]), 2);
    }

    #[test]
    fn balance_002() {
        assert_eq!(balance(&[2, 4, -2]), 4);
    }

    #[test]
    fn balance_003() {
        assert_eq!(balance(&[3, 6, -3]), 6);
    }

    #[test]
    fn balance_004() {
        assert_eq!(balance(&[4, 8, -4]), 8);
    }

    #[test]
    fn balance_005() {
        assert_eq!(balance(&[5, 10, -5]), 10);
    }

    #[test]
    fn balance_006() {
        assert_eq!(balance(&[6, 12, -6]), 12);
    }

    #[test]
    fn balance_007() {
        assert_eq!(balance(&[7, 14, -7]), 14);
    }

    #[test]
    fn balance_008() {
        assert_eq!(balance(&[8, 16, -8]), 16);
    }

    #[test]
    fn balance_009() {
        assert_eq!(balance(&[9, 18, -9]), 18);
    }

    #[test]
    fn balance_010() {
        assert_eq!(balance(&[10, 20, -10]), 20);
    }

    #[test]
    fn balance_011() {
        assert_eq!(balance(&[11, 22, -11]), 22);
    }

    #[test]
    fn balance_012() {
        assert_eq!(balance(&[12, 24, -12]), 24);
    }

    #[test]
    fn balance_013() {
        assert_eq!(balance(&[13, 26, -13]), 26);
    }

    #[test]
    fn balance_014() {
        assert_eq!(balance(&[14, 28, -14]), 28);
    }

    #[test]
    fn balance_015() {
        assert_eq!(balance(&[15, 30, -15]), 30);
    }

    #[test]
    fn balance_016() {
        assert_eq!(balance(&[16, 32, -16]), 32);
    }

    #[test]
    fn balance_017() {
        assert_eq!(balance(&[17, 34, -17]), 34);
    }

    #[test]
    fn balance_018() {
        assert_eq!(balance(&[18, 36, -18]), 36);
    }

    #[test]
    fn balance_019() {
        assert_eq!(balance(&[19, 38, -19]), 38);
    }

    #[test]
    fn balance_020() {
        assert_eq!(balance(&[20, 40, -20]), 40);
    }

    #[test]
    fn balance_021() {
        assert_eq!(balance(&[21, 42, -21]), 42);
    }

    #[test]
    fn balance_022() {
        assert_eq!(balance(&[22, 44, -22]), 44);
    }

    #[test]
    fn balance_023() {
        assert_eq!(balance(&[23, 46, -23]), 46);
    }

    #[test]
    fn balance_024() {
        assert_eq!(balance(&[24, 48, -24]), 48);
    }

    #[test]
    fn balance_025() {
        assert_eq!(balance(&[25, 50, -25]), 50);
    }

    #[test]
    fn balance_026() {
        assert_eq!(balance(&[26, 52, -26]), 52);
    }

    #[test]
    fn balance_027() {
        assert_eq!(balance(&[27, 54, -27]), 54);
    }

    #[test]
    fn balance_028() {
        assert_eq!(balance(&[28, 56, -28]), 56);
    }

    #[test]
    fn balance_029() {
        assert_eq!(balance(&[29, 58, -29]), 58);
    }

    #[test]
    fn balance_030() {
        assert_eq!(balance(&[30, 60, -30]), 60);
    }

    #[test]
    fn balance_031() {
        assert_eq!(balance(&[31, 62, -31]), 62);
    }

    #[test]
    fn balance_032() {
        assert_eq!(balance(&[32, 64, -32]), 64);
    }

    #[test]
    fn balance_033() {
        assert_eq!(balance(&[33, 66, -33]), 66);
    }

    #[test]
    fn balance_034() {
        assert_eq!(balance(&[34, 68, -34]), 68);
    }

    #[test]
    fn balance_035() {
        assert_eq!(balance(&[35, 70, -35]), 70);
    }

    #[test]
    fn balance_036() {
        assert_eq!(balance(&[36, 72, -36]), 72);
    }

    #[test]
    fn balance_037() {
        assert_eq!(balance(&[37, 74, -37]), 74);
    }

    #[test]
    fn balance_038() {
        assert_eq!(balance(&[38, 76, -38]), 76);
    }

    #[test]
    fn balance_039() {
        assert_eq!(balance(&[39, 78, -39]), 78);
    }

    #[test]
    fn balance_040() {
        assert_eq!(balance(&[40, 80, -40]), 80);
    }

    #[test]
    fn balance_041() {
        assert_eq!(balance(&[41, 82, -41]), 82);
    }

    #[test]
    fn balance_042() {
        assert_eq!(balance(&[42, 84, -42]), 84);
    }

    #[test]
    fn balance_043() {
        assert_eq!(balance(&[43, 86, -43]), 86);
    }

    #[test]
    fn balance_044() {
        assert_eq!(balance(&[44, 88, -44]), 88);
    }

    #[test]
    fn balance_045() {
        assert_eq!(balance(&[45, 90, -45]), 90);
    }

    #[test]
    fn balance_046() {
        assert_eq!(balance(&[46, 92, -46]), 92);
    }

    #[test]
    fn balance_047() {
        assert_eq!(balance(&[47, 94, -47]), 94);
    }

    #[test]
    fn balance_048() {
        assert_eq!(balance(&[48, 96, -48]), 96);
    }

    #[test]
    fn balance_049() {
        assert_eq!(balance(&[49, 98, -49]), 98);
    }

    #[test]
    fn balance_050() {
        assert_eq!(balance(&[50, 100, -50]), 100);
    }

    #[test]
    fn balance_051() {
        assert_eq!(balance(&[51, 102, -51]), 102);
    }

    #[test]
    fn balance_052() {
        assert_eq!(balance(&[52, 104, -52]), 104);
    }

    #[test]
    fn balance_053() {
        assert_eq!(balance(&[53, 106, -53]), 106);
    }

    #[test]
    fn balance_054() {
        assert_eq!(balance(&[54, 108, -54]), 108);
    }

    #[test]
    fn balance_055() {
        assert_eq!(balance(&[55, 110, -55]), 110);
    }

    #[test]
    fn balance_056() {
        assert_eq!(balance(&[56, 112, -56]), 112);
    }

    #[test]
    fn balance_057() {
        assert_eq!(balance(&[57, 114, -57]), 114);
    }

    #[test]
    fn balance_058() {
        assert_eq!(balance(&[58, 116, -58]), 116);
    }

    #[test]
    fn balance_059() {
        assert_eq!(balance(&[59, 118, -59]), 118);
    }

    #[test]
    fn balance_060() {
        assert_eq!(balance(&[60, 120, -60]), 120);
    }

    #[test]
    fn balance_061() {
        assert_eq!(balance(&[61, 122, -61]), 122);
    }

    #[test]
    fn balance_062() {
        assert_eq!(balance(&[62, 124, -62]), 124);
    }

    #[test]
    fn balance_063() {
        assert_eq!(balance(&[63, 126, -63]), 126);
    }

    #[test]
    fn balance_064() {
        assert_eq!(balance(&[64, 128, -64]), 128);
    }

    #[test]
    fn balance_065() {
        assert_eq!(balance(&[65, 130, -65]), 130);
    }

    #[test]
    fn balance_066() {
        assert_eq!(balance(&[66, 132, -66]), 132);
    }

    #[test]
    fn balance_067() {
        assert_eq!(balance(&[67, 134, -67]), 134);
    }

    #[test]
    fn balance_068() {
        assert_eq!(balance(&[68, 136, -68]), 136);
    }

    #[test]
    fn balance_069() {
        assert_eq!(balance(&[69, 138, -69]), 138);
    }

    #[test]
    fn balance_070() {
        assert_eq!(balance(&[70, 140, -70]), 140);
    }

    #[test]
    fn balance_071() {
        assert_eq!(balance(&[71, 142, -71]), 142);
    }

    #[test]
    fn balance_072() {
        assert_eq!(balance(&[72, 144, -72]), 144);
    }

    #[test]
    fn balance_073() {
        assert_eq!(balance(&[73, 146, -73]), 146);
    }

    #[test]
    fn balance_074() {
        assert_eq!(balance(&[74, 148, -74]), 148);
    }

    #[test]
    fn balance_075() {
        assert_eq!(balance(&[75, 150, -75]), 150);
    }

    #[test]
    fn balance_076() {
        assert_eq!(balance(&[76, 152, -76]), 152);
    }

    #[test]
    fn balance_077() {
        assert_eq!(balance(&[77, 154, -77]), 154);
    }

    #[test]
    fn balance_078() {
        assert_eq!(balance(&[78, 156, -78]), 156);
    }

    #[test]
    fn balance_079() {
        assert_eq!(balance(&[79, 158, -79]), 158);
    }

    #[test]
    fn balance_080() {
        assert_eq!(balance(&[80, 160, -80]), 160);
    }

    #[test]
    fn balance_081() {
        assert_eq!(balance(&[81, 162, -81]), 162);
    }

    #[test]
    fn balance_082() {
        assert_eq!(balance(&[82, 164, -82]), 164);
    }

    #[test]
    fn balance_083() {
        assert_eq!(balance(&[83, 166, -83]), 166);
    }

    #[test]
    fn balance_084() {
        assert_eq!(balance(&[84, 168, -84]), 168);
    }

    #[test]
    fn balance_085() {
        assert_eq!(balance(&[85, 170, -85]), 170);
    }

    #[test]
    fn balance_086() {
        assert_eq!(balance(&[86, 172, -86]), 172);
    }

    #[test]
    fn balance_087() {
        assert_eq!(balance(&[87, 174, -87]), 174);
    }

    #[test]
    fn balance_088() {
        assert_eq!(balance(&[88, 176, -88]), 176);
    }

    #[test]
    fn balance_089() {
        assert_eq!(balance(&[89, 178, -89]), 178);
    }

    #[test]
    fn balance_090() {
        assert_eq!(balance(&[90, 180, -90]), 180);
    }

    #[test]
    fn balance_091() {
        assert_eq!(balance(&[91, 182, -91]), 182);
    }

    #[test]
    fn balance_092() {
        assert_eq!(balance(&[92, 184, -92]), 184);
    }

    #[test]
    fn balance_093() {
        assert_eq!(balance(&[93, 186, -93]), 186);
    }

    #[test]
    fn balance_094() {
        assert_eq!(balance(&[94, 188, -94]), 188);
    }

    #[test]
    fn balance_095() {
        assert_eq!(balance(&[95, 190, -95]), 190);
    }

    #[test]
    fn balance_096() {
        assert_eq!(balance(&[96, 192, -96]), 192);
    }

    #[test]
    fn balance_097() {
        assert_eq!(balance(&[97, 194, -97]), 194);
    }

    #[test]
    fn balance_098() {
        assert_eq!(balance(&[98, 196, -98]), 196);
    }

    #[test]
    fn balance_099() {
        assert_eq!(balance(&[99, 198, -99]), 198);
    }

    #[test]
    fn balance_100() {
        assert_eq!(balance(&[100, 200, -100]), 200);
    }

    #[test]
    fn balance_101() {
        assert_eq!(balance(&[101, 202, -101]), 202);
    }

    #[test]
    fn balance_102() {
        assert_eq!(balance(&[102, 204, -102]), 204);
    }

    #[test]
    fn balance_103() {
        assert_eq!(balance(&[103, 206, -103]), 206);
    }

    #[test]
    fn balance_104() {
        assert_eq!(balance(&[104, 208, -104]), 208);
    }

    #[test]
    fn balance_105() {
        assert_eq!(balance(&[105, 210, -105]), 210);
    }

    #[test]
    fn balance_106() {
        assert_eq!(balance(&[106, 212, -106]), 212);
    }

    #[test]
    fn balance_107() {
        assert_eq!(balance(&[107, 214, -107]), 214);
    }

    #[test]
    fn balance_108() {
        assert_eq!(balance(&[108, 216, -108]), 216);
    }

    #[test]
    fn balance_109() {
        assert_eq!(balance(&[109, 218, -109]), 218);
    }

    #[test]
    fn balance_110() {
        assert_eq!(balance(&[110, 220, -110]), 220);
    }

    #[test]
    fn balance_111() {
        assert_eq!(balance(&[111, 222, -111]), 222);
    }

    #[test]
    fn balance_112() {
        assert_eq!(balance(&[112, 224, -112]), 224);
    }

    #[test]
    fn balance_113() {
        assert_eq!(balance(&[113, 226, -113]), 226);
    }

    #[test]
    fn balance_114() {
        assert_eq!(balance(&[114, 228, -114]), 228);
    }

    #[test]
    fn balance_115() {
        assert_eq!(balance(&[115, 230, -115]), 230);
    }

    #[test]
    fn balance_116() {
        assert_eq!(balance(&[116, 232, -116]), 232);
    }

    #[test]
    fn balance_117() {
        assert_eq!(balance(&[117, 234, -117]), 234);
    }

    #[test]
    fn balance_118() {
        assert_eq!(balance(&[118, 236, -118]), 236);
    }

    #[test]
    fn balance_119() {
        assert_eq!(balance(&[119, 238, -119]), 238);
    }

    #[test]
    fn balance_120() {
        assert_eq!(balance(&[120, 240, -120]), 240);
    }

    #[test]
    fn balance_121() {
        assert_eq!(balance(&[121, 242, -121]), 242);
    }

    #[test]
    fn balance_122() {
        assert_eq!(balance(&[122, 244, -122]), 244);
    }

    #[test]
    fn balance_123() {
        assert_eq!(balance(&[123, 246, -123]), 246);
    }

    #[test]
    fn balance_124() {
        assert_eq!(balance(&[124, 248, -124]), 248);
    }

    #[test]
    fn balance_125() {
        assert_eq!(balance(&[125, 250, -125]), 250);
    }

    #[test]
    fn balance_126() {
        assert_eq!(balance(&[126, 252, -126]), 252);
    }

    #[test]
    fn balance_127() {
        assert_eq!(balance(&[127, 254, -127]), 254);
    }

    #[test]
    fn balance_128() {
        assert_eq!(balance(&[128, 256, -128]), 256);
    }

    #[test]
    fn balance_129() {
        assert_eq!(balance(&[129, 258, -129]), 258);
    }

    #[test]
    fn balance_130() {
        assert_eq!(balance(&[130, 260, -130]), 260);
    }

    #[test]
    fn balance_131() {
        assert_eq!(balance(&[131, 262, -131]), 262);
    }

    #[test]
    fn balance_132() {
        assert_eq!(balance(&[132, 264, -132]), 264);
    }

    #[test]
    fn balance_133() {
        assert_eq!(balance(&[133, 266, -133]), 266);
    }

    #[test]
    fn balance_134() {
        assert_eq!(balance(&[134, 268, -134]), 268);
    }

    #[test]
    fn balance_135() {
        assert_eq!(balance(&[135, 270, -135]), 270);
    }

    #[test]
    fn balance_136() {
        assert_eq!(balance(&[136, 272, -136]), 272);
    }

    #[test]
    fn balance_137() {
        assert_eq!(balance(&[137, 274, -137]), 274);
    }

    #[test]
    fn balance_138() {
        assert_eq!(balance(&[138, 276, -138]), 276);
    }

    #[test]
    fn balance_139() {
        assert_eq!(balance(&[139, 278, -139]), 278);
    }

    #[test]
    fn balance_140() {
        assert_eq!(balance(&[140, 280, -140]), 280);
    }

    #[test]
    fn balance_141() {
        assert_eq!(balance(&[141, 282, -141]), 282);
    }

    #[test]
    fn balance_142() {
        assert_eq!(balance(&[142, 284, -142]), 284);
    }

    #[test]
    fn balance_143() {
        assert_eq!(balance(&[143, 286, -143]), 286);
    }

    #[test]
    fn balance_144() {
        assert_eq!(balance(&[144, 288, -144]), 288);
    }

    #[test]
    fn balance_145() {
        assert_eq!(balance(&[145, 290, -145]), 290);
    }

    #[test]
    fn balance_146() {
        assert_eq!(balance(&[146, 292, -146]), 292);
    }

    #[test]
    fn balance_147() {
        assert_eq!(balance(&[147, 294, -147]), 294);
    }

    #[test]
    fn balance_148() {
        assert_eq!(balance(&[148, 296, -148]), 296);
    }

    #[test]
    fn balance_149() {
        assert_eq!(balance(&[149, 298, -149]), 298);
    }

    #[test]
    fn balance_150() {
        assert_eq!(balance(&[150, 300, -150]), 300);
    }

    #[test]
    fn balance_151() {
        assert_eq!(balance(&[151, 302, -151]), 302);
    }

    #[test]
    fn balance_152() {
        assert_eq!(balance(&[152, 304, -152]), 304);
    }

    #[test]
    fn balance_153() {
        assert_eq!(balance(&[153, 306, -153]), 306);
    }

    #[test]
    fn balance_154() {
        assert_eq!(balance(&[154, 308, -154]), 308);
    }

    #[test]
    fn balance_155() {
        assert_eq!(balance(&[155, 310, -155]), 310);
    }

    #[test]
    fn balance_156() {
        assert_eq!(balance(&[156, 312, -156]), 312);
    }

    #[test]
    fn balance_157() {
        assert_eq!(balance(&[157, 314, -157]), 314);
    }

    #[test]
    fn balance_158() {
        assert_eq!(balance(&[158, 316, -158]), 316);
    }

    #[test]
    fn balance_159() {
        assert_eq!(balance(&[159, 318, -159]), 318);
    }

    #[test]
    fn balance_160() {
        assert_eq!(balance(&[160, 320, -160]), 320);
    }

    #[test]
    fn balance_161() {
        assert_eq!(balance(&[161, 322, -161]), 322);
    }

    #[test]
    fn balance_162() {
        assert_eq!(balance(&[162, 324, -162]), 324);
    }

    #[test]
    fn balance_163() {
        assert_eq!(balance(&[163, 326, -163]), 326);
    }

    #[test]
    fn balance_164() {
        assert_eq!(balance(&[164, 328, -164]), 328);
    }

    #[test]
    fn balance_165() {
        assert_eq!(balance(&[165, 330, -165]), 330);
    }

    #[test]
    fn balance_166() {
        assert_eq!(balance(&[166, 332, -166]), 332);
    }

    #[test]
    fn balance_167() {
        assert_eq!(balance(&[167, 334, -167]), 334);
    }

    #[test]
    fn balance_168() {
        assert_eq!(balance(&[168, 336, -168]), 336);
    }

    #[test]
    fn balance_169() {
        assert_eq!(balance(&[169, 338, -169]), 338);
    }

    #[test]
    fn balance_170() {
        assert_eq!(balance(&[170, 340, -170]), 340);
    }

    #[test]
    fn balance_171() {
        assert_eq!(balance(&[171, 342, -171]), 342);
    }

    #[test]
    fn balance_172() {
        assert_eq!(balance(&[172, 344, -172]), 344);
    }

    #[test]
    fn balance_173() {
        assert_eq!(balance(&[173, 346, -173]), 346);
    }

    #[test]
    fn balance_174() {
        assert_eq!(balance(&[174, 348, -174]), 348);
    }

    #[test]
    fn balance_175() {
        assert_eq!(balance(&[175, 350, -175]), 350);
    }

    #[test]
    fn balance_176() {
        assert_eq!(balance(&[176, 352, -176]), 352);
    }

    #[test]
    fn balance_177() {
        assert_eq!(balance(&[177, 354, -177]), 354);
    }

    #[test]
    fn balance_178() {
        assert_eq!(balance(&[178, 356, -178]), 356);
    }

    #[test]
    fn balance_179() {
        assert_eq!(balance(&[179, 358, -179]), 358);
    }

    #[test]
    fn balance_180() {
        assert_eq!(balance(&[180, 360, -180]), 360);
    }

    #[test]
    fn balance_181() {
        assert_eq!(balance(&[181, 362, -181]), 362);
    }

    #[test]
    fn balance_182() {
        assert_eq!(balance(&[182, 364, -182]), 364);
    }

    #[test]
    fn balance_183() {
        assert_eq!(balance(&[183, 366, -183]), 366);
    }

    #[test]
    fn balance_184() {
        assert_eq!(balance(&[184, 368, -184]), 368);
    }

    #[test]
    fn balance_185() {
        assert_eq!(balance(&[185, 370, -185]), 370);
    }

    #[test]
    fn balance_186() {
        assert_eq!(balance(&[186, 372, -186]), 372);
    }

    #[test]
    fn balance_187() {
        assert_eq!(balance(&[187, 374, -187]), 374);
    }

    #[test]
    fn balance_188() {
        assert_eq!(balance(&[188, 376, -188]), 376);
    }

    #[test]
    fn balance_189() {
        assert_eq!(balance(&[189, 378, -189]), 378);
    }

    #[test]
    fn balance_190() {
        assert_eq!(balance(&[190, 380, -190]), 380);
    }

    #[test]
    fn balance_191() {
        assert_eq!(balance(&[191, 382, -191]), 382);
    }

    #[test]
    fn balance_192() {
        assert_eq!(balance(&[192, 384, -192]), 384);
    }

    #[test]
    fn balance_193() {
        assert_eq!(balance(&[193, 386, -193]), 386);
    }

    #[test]
    fn balance_194() {
        assert_eq!(balance(&[194, 388, -194]), 388);
    }

    #[test]
    fn balance_195() {
        assert_eq!(balance(&[195, 390, -195]), 390);
    }

    #[test]
    fn balance_196() {
        assert_eq!(balance(&[196, 392, -196]), 392);
    }

    #[test]
    fn balance_197() {
        assert_eq!(balance(&[197, 394, -197]), 394);
    }

    #[test]
    fn balance_198() {
        assert_eq!(balance(&[198, 396, -198]), 396);
    }

    #[test]
    fn balance_199() {
        assert_eq!(balance(&[199, 398, -199]), 398);
    }

    #[test]
    fn balance_200() {
        assert_eq!(balance(&[200, 400, -200]), 400);
    }

    #[test]
    fn balance_201() {
        assert_eq!(balance(&[201, 402, -201]), 402);
    }

    #[test]
    fn balance_202() {
        assert_eq!(balance(&[202, 404, -202]), 404);
    }

    #[test]
    fn balance_203() {
        assert_eq!(balance(&[203, 406, -203]), 406);
    }

    #[test]
    fn balance_204() {
        assert_eq!(balance(&[204, 408, -204]), 408);
    }

    #[test]
    fn balance_205() {
        assert_eq!(balance(&[205, 410, -205]), 410);
    }

    #[test]
    fn balance_206() {
        assert_eq!(balance(&[206, 412, -206]), 412);
    }

    #[test]
    fn balance_207() {
        assert_eq!(balance(&[207, 414, -207]), 414);
    }

    #[test]
    fn balance_208() {
        assert_eq!(balance(&[208, 416, -208]), 416);
    }

    #[test]
    fn balance_209() {
        assert_eq!(balance(&[209, 418, -209]), 418);
    }

    #[test]
    fn balance_210() {
        assert_eq!(balance(&[210, 420, -210]), 420);
    }

    #[test]
    fn balance_211() {
        assert_eq!(balance(&[211, 422, -211]), 422);
    }

    #[test]
    fn balance_212() {
        assert_eq!(balance(&[212, 424, -212]), 424);
    }

    #[test]
    fn balance_213() {
        assert_eq!(balance(&[213, 426, -213]), 426);
    }

    #[test]
    fn balance_214() {
        assert_eq!(balance(&[214, 428, -214]), 428);
    }

    #[test]
    fn balance_215() {
        assert_eq!(balance(&[215, 430, -215]), 430);
    }

    #[test]
    fn balance_216() {
        assert_eq!(balance(&[216, 432, -216]), 432);
    }

    #[test]
    fn balance_217() {
        assert_eq!(balance(&[217, 434, -217]), 434);
    }

    #[test]
    fn balance_218() {
        assert_eq!(balance(&[218, 436, -218]), 436);
    }

    #[test]
    fn balance_219() {
        assert_eq!(balance(&[219, 438, -219]), 438);
    }

    #[test]
    fn balance_220() {
        assert_eq!(balance(&[220, 440, -220]), 440);
    }

    #[test]
    fn balance_221() {
        assert_eq!(balance(&[221, 442, -221]), 442);
    }

    #[test]
    fn balance_222() {
        assert_eq!(balance(&[222, 444, -222]), 444);
    }

    #[test]
    fn balance_223() {
        assert_eq!(balance(&[223, 446, -223]), 446);
    }

    #[test]
    fn balance_224() {
        assert_eq!(balance(&[224, 448, -224]), 448);
    }

    #[test]
    fn balance_225() {
        assert_eq!(balance(&[225, 450, -225]), 450);
    }

    #[test]
    fn balance_226() {
        assert_eq!(balance(&[226, 452, -226]), 452);
    }

    #[test]
    fn balance_227() {
        assert_eq!(balance(&[227, 454, -227]), 454);
    }

    #[test]
    fn balance_228() {
        assert_eq!(balance(&[228, 456, -228]), 456);
    }

    #[test]
    fn balance_229() {
        assert_eq!(balance(&[229, 458, -229]), 458);
    }

    #[test]
    fn balance_230() {
        assert_eq!(balance(&[230, 460, -230]), 460);
    }

    #[test]
    fn balance_231() {
        assert_eq!(balance(&[231, 462, -231]), 462);
    }

    #[test]
    fn balance_232() {
        assert_eq!(balance(&[232, 464, -232]), 464);
    }

    #[test]
    fn balance_233() {
        assert_eq!(balance(&[233, 466, -233]), 466);
    }

    #[test]
    fn balance_234() {
        assert_eq!(balance(&[234, 468, -234]), 468);
    }

    #[test]
    fn balance_235() {
        assert_eq!(balance(&[235, 470, -235]), 470);
    }

    #[test]
    fn balance_236() {
        assert_eq!(balance(&[236, 472, -236]), 472);
    }

    #[test]
    fn balance_237() {
        assert_eq!(balance(&[237, 474, -237]), 474);
    }

    #[test]
    fn balance_238() {
        assert_eq!(balance(&[238, 476, -238]), 476);
    }

    #[test]
    fn balance_239() {
        assert_eq!(balance(&[239, 478, -239]), 478);
    }

    #[test]
    fn balance_240() {
        assert_eq!(balance(&[240, 480, -240]), 480);
    }
}
