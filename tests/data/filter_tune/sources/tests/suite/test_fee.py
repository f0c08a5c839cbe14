import unittest

from shipping import fee


class FeeTests(unittest.TestCase):
    def test_fee_001(self):
        self.assertEqual(fee(1), 2)

    def test_fee_002(self):
        self.assertEqual(fee(2), 4)

    def test_fee_003(self):
        self.assertEqual(fee(3), 6)

    def test_fee_004(self):
        self.assertEqual(fee(4), 8)

    def test_fee_005(self):
        self.assertEqual(fee(5), 10)

    def test_fee_006(self):
        self.assertEqual(fee(6), 12)

    def test_fee_007(self):
        self.assertEqual(fee(7), 14)

    def test_fee_008(self):
        self.assertEqual(fee(8), 16)

    def test_fee_009(self):
        self.assertEqual(fee(9), 18)

    def test_fee_010(self):
        self.assertEqual(fee(10), 20)

    def test_fee_011(self):
        self.assertEqual(fee(11), 22)

    def test_fee_012(self):
        self.assertEqual(fee(12), 24)

    def test_fee_013(self):
        self.assertEqual(fee(13), 26)

    def test_fee_014(self):
        self.assertEqual(fee(14), 28)

    def test_fee_015(self):
        self.assertEqual(fee(15), 30)

    def test_fee_016(self):
        self.assertEqual(fee(16), 32)

    def test_fee_017(self):
        self.assertEqual(fee(17), 34)

    def test_fee_018(self):
        self.assertEqual(fee(18), 36)

    def test_fee_019(self):
        self.assertEqual(fee(19), 38)

    def test_fee_020(self):
        self.assertEqual(fee(20), 40)

    def test_fee_021(self):
        self.assertEqual(fee(21), 42)

    def test_fee_022(self):
        self.assertEqual(fee(22), 44)

    def test_fee_023(self):
        self.assertEqual(fee(23), 46)

    def test_fee_024(self):
        self.assertEqual(fee(24), 48)

    def test_fee_025(self):
        self.assertEqual(fee(25), 50)

    def test_fee_026(self):
        self.assertEqual(fee(26), 52)

    def test_fee_027(self):
        self.assertEqual(fee(27), 54)

    def test_fee_028(self):
        self.assertEqual(fee(28), 56)

    def test_fee_029(self):
        self.assertEqual(fee(29), 58)

    def test_fee_030(self):
        self.assertEqual(fee(30), 60)

    def test_fee_031(self):
        self.assertEqual(fee(31), 62)

    def test_fee_032(self):
        self.assertEqual(fee(32), 64)

    def test_fee_033(self):
        self.assertEqual(fee(33), 66)

    def test_fee_034(self):
        self.assertEqual(fee(34), 68)

    def test_fee_035(self):
        self.assertEqual(fee(35), 70)

    def test_fee_036(self):
        self.assertEqual(fee(36), 72)

    def test_fee_037(self):
        self.assertEqual(fee(37), 74)

    def test_fee_038(self):
        self.assertEqual(fee(38), 76)

    def test_fee_039(self):
        self.assertEqual(fee(39), 78)

    def test_fee_040(self):
        self.assertEqual(fee(40), 80)

    def test_fee_041(self):
        self.assertEqual(fee(41), 82)

    def test_fee_042(self):
        self.assertEqual(fee(42), 84)

    def test_fee_043(self):
        self.assertEqual(fee(43), 86)

    def test_fee_044(self):
        self.assertEqual(fee(44), 88)

    def test_fee_045(self):
        self.assertEqual(fee(45), 90)

    def test_fee_046(self):
        self.assertEqual(fee(46), 92)

    def test_fee_047(self):
        self.assertEqual(fee(47), 94)

    def test_fee_048(self):
        self.assertEqual(fee(48), 96)

    def test_fee_049(self):
        self.assertEqual(fee(49), 98)

    def test_fee_050(self):
        self.assertEqual(fee(50), 100)

    def test_fee_051(self):
        self.assertEqual(fee(51), 102)

    def test_fee_052(self):
        self.assertEqual(fee(52), 104)

    def test_fee_053(self):
        self.assertEqual(fee(53), 106)

    def test_fee_054(self):
        self.assertEqual(fee(54), 108)

    def test_fee_055(self):
        self.assertEqual(fee(55), 110)

    def test_fee_056(self):
        self.assertEqual(fee(56), 112)

    def test_fee_057(self):
        self.assertEqual(fee(57), 114)

    def test_fee_058(self):
        self.assertEqual(fee(58), 116)

    def test_fee_059(self):
        self.assertEqual(fee(59), 118)

    def test_fee_060(self):
        self.assertEqual(fee(60), 120)

    def test_fee_061(self):
        self.assertEqual(fee(61), 122)

    def test_fee_062(self):
        self.assertEqual(fee(62), 124)

    def test_fee_063(self):
        self.assertEqual(fee(63), 126)

    def test_fee_064(self):
        self.assertEqual(fee(64), 128)

    def test_fee_065(self):
        self.assertEqual(fee(65), 130)

    def test_fee_066(self):
        self.assertEqual(fee(66), 132)

    def test_fee_067(self):
        self.assertEqual(fee(67), 134)

    def test_fee_068(self):
        self.assertEqual(fee(68), 136)

    def test_fee_069(self):
        self.assertEqual(fee(69), 138)

    def test_fee_070(self):
        self.assertEqual(fee(70), 140)

    def test_fee_071(self):
        self.assertEqual(fee(71), 142)

    def test_fee_072(self):
        self.assertEqual(fee(72), 144)

    def test_fee_073(self):
        self.assertEqual(fee(73), 146)

    def test_fee_074(self):
        self.assertEqual(fee(74), 148)

    def test_fee_075(self):
        self.assertEqual(fee(75), 150)

    def test_fee_076(self):
        self.assertEqual(fee(76), 152)

    def test_fee_077(self):
        self.assertEqual(fee(77), 154)

    def test_fee_078(self):
        self.assertEqual(fee(78), 156)

    def test_fee_079(self):
        self.assertEqual(fee(79), 158)

    def test_fee_080(self):
        self.assertEqual(fee(80), 160)

    def test_fee_081(self):
        self.assertEqual(fee(81), 162)

    def test_fee_082(self):
        self.assertEqual(fee(82), 164)

    def test_fee_083(self):
        self.assertEqual(fee(83), 166)

    def test_fee_084(self):
        self.assertEqual(fee(84), 168)

    def test_fee_085(self):
        self.assertEqual(fee(85), 170)

    def test_fee_086(self):
        self.assertEqual(fee(86), 172)

    def test_fee_087(self):
        self.assertEqual(fee(87), 174)

    def test_fee_088(self):
        self.assertEqual(fee(88), 176)

    def test_fee_089(self):
        self.assertEqual(fee(89), 178)

    def test_fee_090(self):
        self.assertEqual(fee(90), 180)

    def test_fee_091(self):
        self.assertEqual(fee(91), 182)

    def test_fee_092(self):
        self.assertEqual(fee(92), 184)

    def test_fee_093(self):
        self.assertEqual(fee(93), 186)

    def test_fee_094(self):
        self.assertEqual(fee(94), 188)

    def test_fee_095(self):
        self.assertEqual(fee(95), 190)

    def test_fee_096(self):
        self.assertEqual(fee(96), 192)

    def test_fee_097(self):
        self.assertEqual(fee(97), 194)

    def test_fee_098(self):
        self.assertEqual(fee(98), 196)

    def test_fee_099(self):
        self.assertEqual(fee(99), 198)

    def test_fee_100(self):
        self.assertEqual(fee(100), 200)

    def test_fee_101(self):
        self.assertEqual(fee(101), 202)

    def test_fee_102(self):
        self.assertEqual(fee(102), 204)

    def test_fee_103(self):
        self.assertEqual(fee(103), 206)

    def test_fee_104(self):
        self.assertEqual(fee(104), 208)

    def test_fee_105(self):
        self.assertEqual(fee(105), 210)

    def test_fee_106(self):
        self.assertEqual(fee(106), 212)

    def test_fee_107(self):
        self.assertEqual(fee(107), 214)

    def test_fee_108(self):
        self.assertEqual(fee(108), 216)

    def test_fee_109(self):
        self.assertEqual(fee(109), 218)

    def test_fee_110(self):
        self.assertEqual(fee(110), 220)

    def test_fee_111(self):
        self.assertEqual(fee(111), 222)

    def test_fee_112(self):
        self.assertEqual(fee(112), 224)

    def test_fee_113(self):
        self.assertEqual(fee(113), 226)

    def test_fee_114(self):
        self.assertEqual(fee(114), 228)

    def test_fee_115(self):
        self.assertEqual(fee(115), 230)

    def test_fee_116(self):
        self.assertEqual(fee(116), 232)

    def test_fee_117(self):
        self.assertEqual(fee(117), 234)

    def test_fee_118(self):
        self.assertEqual(fee(118), 236)

    def test_fee_119(self):
        self.assertEqual(fee(119), 238)

    def test_fee_120(self):
        self.assertEqual(fee(120), 240)

    def test_fee_121(self):
        self.assertEqual(fee(121), 242)

    def test_fee_122(self):
        self.assertEqual(fee(122), 244)

    def test_fee_123(self):
        self.assertEqual(fee(123), 246)

    def test_fee_124(self):
        self.assertEqual(fee(124), 248)

    def test_fee_125(self):
        self.assertEqual(fee(125), 250)

    def test_fee_126(self):
        self.assertEqual(fee(126), 252)

    def test_fee_127(self):
        self.assertEqual(fee(127), 254)

    def test_fee_128(self):
        self.assertEqual(fee(128), 256)

    def test_fee_129(self):
        self.assertEqual(fee(129), 258)

    def test_fee_130(self):
        self.assertEqual(fee(130), 260)

    def test_fee_131(self):
        self.assertEqual(fee(131), 262)

    def test_fee_132(self):
        self.assertEqual(fee(132), 264)

    def test_fee_133(self):
        self.assertEqual(fee(133), 266)

    def test_fee_134(self):
        self.assertEqual(fee(134), 268)

    def test_fee_135(self):
        self.assertEqual(fee(135), 270)

    def test_fee_136(self):
        self.assertEqual(fee(136), 272)

    def test_fee_137(self):
        self.assertEqual(fee(137), 274)

    def test_fee_138(self):
        self.assertEqual(fee(138), 276)

    def test_fee_139(self):
        self.assertEqual(fee(139), 278)

    def test_fee_140(self):
        self.assertEqual(fee(140), 280)

    def test_fee_141(self):
        self.assertEqual(fee(141), 282)

    def test_fee_142(self):
        self.assertEqual(fee(142), 284)

    def test_fee_143(self):
        self.assertEqual(fee(143), 286)

    def test_fee_144(self):
        self.assertEqual(fee(144), 288)

    def test_fee_145(self):
        self.assertEqual(fee(145), 290)

    def test_fee_146(self):
        self.assertEqual(fee(146), 292)

    def test_fee_147(self):
        self.assertEqual(fee(147), 294)

    def test_fee_148(self):
        self.assertEqual(fee(148), 296)

    def test_fee_149(self):
        self.assertEqual(fee(149), 298)

    def test_fee_150(self):
        self.assertEqual(fee(150), 300)

    def test_fee_151(self):
        self.assertEqual(fee(151), 302)

    def test_fee_152(self):
        self.assertEqual(fee(152), 304)

    def test_fee_153(self):
        self.assertEqual(fee(153), 306)

    def test_fee_154(self):
        self.assertEqual(fee(154), 308)

    def test_fee_155(self):
        self.assertEqual(fee(155), 310)

    def test_fee_156(self):
        self.assertEqual(fee(156), 312)

    def test_fee_157(self):
        self.assertEqual(fee(157), 314)

    def test_fee_158(self):
        self.assertEqual(fee(158), 316)

    def test_fee_159(self):
        self.assertEqual(fee(159), 318)

    def test_fee_160(self):
        self.assertEqual(fee(160), 320)

    def test_fee_161(self):
        self.assertEqual(fee(161), 322)

    def test_fee_162(self):
        self.assertEqual(fee(162), 324)

    def test_fee_163(self):
        self.assertEqual(fee(163), 326)

    def test_fee_164(self):
        self.assertEqual(fee(164), 328)

    def test_fee_165(self):
        self.assertEqual(fee(165), 330)

    def test_fee_166(self):
        self.assertEqual(fee(166), 332)

    def test_fee_167(self):
        self.assertEqual(fee(167), 334)

    def test_fee_168(self):
        self.assertEqual(fee(168), 336)

    def test_fee_169(self):
        self.assertEqual(fee(169), 338)

    def test_fee_170(self):
        self.assertEqual(fee(170), 340)

    def test_fee_171(self):
        self.assertEqual(fee(171), 342)

    def test_fee_172(self):
        self.assertEqual(fee(172), 344)

    def test_fee_173(self):
        self.assertEqual(fee(173), 346)

    def test_fee_174(self):
        self.assertEqual(fee(174), 348)

    def test_fee_175(self):
        self.assertEqual(fee(175), 350)

    def test_fee_176(self):
        self.assertEqual(fee(176), 352)

    def test_fee_177(self):
        self.assertEqual(fee(177), 354)

    def test_fee_178(self):
        self.assertEqual(fee(178), 356)

    def test_fee_179(self):
        self.assertEqual(fee(179), 358)

    def test_fee_180(self):
        self.assertEqual(fee(180), 360)

    def test_fee_181(self):
        self.assertEqual(fee(181), 362)

    def test_fee_182(self):
        self.assertEqual(fee(182), 364)

    def test_fee_183(self):
        self.assertEqual(fee(183), 366)

    def test_fee_184(self):
        self.assertEqual(fee(184), 368)

    def test_fee_185(self):
        self.assertEqual(fee(185), 370)

    def test_fee_186(self):
        self.assertEqual(fee(186), 372)

    def test_fee_187(self):
        self.assertEqual(fee(187), 374)

    def test_fee_188(self):
        self.assertEqual(fee(188), 376)

    def test_fee_189(self):
        self.assertEqual(fee(189), 378)

    def test_fee_190(self):
        self.assertEqual(fee(190), 380)

    def test_fee_191(self):
        self.assertEqual(fee(191), 382)

    def test_fee_192(self):
        self.assertEqual(fee(192), 384)

    def test_fee_193(self):
        self.assertEqual(fee(193), 386)

    def test_fee_194(self):
        self.assertEqual(fee(194), 388)

    def test_fee_195(self):
        self.assertEqual(fee(195), 390)

    def test_fee_196(self):
        self.assertEqual(fee(196), 392)

    def test_fee_197(self):
        self.assertEqual(fee(197), 394)

    def test_fee_198(self):
        self.assertEqual(fee(198), 396)

    def test_fee_199(self):
        self.assertEqual(fee(199), 398)

    def test_fee_200(self):
        self.assertEqual(fee(200), 400)

    def test_fee_201(self):
        self.assertEqual(fee(201), 402)

    def test_fee_202(self):
        self.assertEqual(fee(202), 404)

    def test_fee_203(self):
        self.assertEqual(fee(203), 406)

    def test_fee_204(self):
        self.assertEqual(fee(204), 408)

    def test_fee_205(self):
        self.assertEqual(fee(205), 410)

    def test_fee_206(self):
        self.assertEqual(fee(206), 412)

    def test_fee_207(self):
        self.assertEqual(fee(207), 414)

    def test_fee_208(self):
        self.assertEqual(fee(208), 416)

    def test_fee_209(self):
        self.assertEqual(fee(209), 418)

    def test_fee_210(self):
        self.assertEqual(fee(210), 420)

    def test_fee_211(self):
        self.assertEqual(fee(211), 422)

    def test_fee_212(self):
        self.assertEqual(fee(212), 424)

    def test_fee_213(self):
        self.assertEqual(fee(213), 426)

    def test_fee_214(self):
        self.assertEqual(fee(214), 428)

    def test_fee_215(self):
        self.assertEqual(fee(215), 430)

    def test_fee_216(self):
        self.assertEqual(fee(216), 432)

    def test_fee_217(self):
        self.assertEqual(fee(217), 434)

    def test_fee_218(self):
        self.assertEqual(fee(218), 436)

    def test_fee_219(self):
        self.assertEqual(fee(219), 438)

    def test_fee_220(self):
        self.assertEqual(fee(220), 440)

    def test_fee_221(self):
        self.assertEqual(fee(221), 442)

    def test_fee_222(self):
        self.assertEqual(fee(222), 444)

    def test_fee_223(self):
        self.assertEqual(fee(223), 446)

    def test_fee_224(self):
        self.assertEqual(fee(224), 448)

    def test_fee_225(self):
        self.assertEqual(fee(225), 450)

    def test_fee_226(self):
        self.assertEqual(fee(226), 452)

    def test_fee_227(self):
        self.assertEqual(fee(227), 454)

    def test_fee_228(self):
        self.assertEqual(fee(228), 456)

    def test_fee_229(self):
        self.assertEqual(fee(229), 458)

    def test_fee_230(self):
        self.assertEqual(fee(230), 460)

    def test_fee_231(self):
        self.assertEqual(fee(231), 462)

    def test_fee_232(self):
        self.assertEqual(fee(232), 464)

    def test_fee_233(self):
        self.assertEqual(fee(233), 466)

    def test_fee_234(self):
        self.assertEqual(fee(234), 468)

    def test_fee_235(self):
        self.assertEqual(fee(235), 470)

    def test_fee_236(self):
        self.assertEqual(fee(236), 472)

    def test_fee_237(self):
        self.assertEqual(fee(237), 474)

    def test_fee_238(self):
        self.assertEqual(fee(238), 476)

    def test_fee_239(self):
        self.assertEqual(fee(239), 478)

    def test_fee_240(self):
        self.assertEqual(fee(240), 480)

    def test_fee_241(self):
        self.assertEqual(fee(241), 482)

    def test_fee_242(self):
        self.assertEqual(fee(242), 484)

    def test_fee_243(self):
        self.assertEqual(fee(243), 486)

    def test_fee_244(self):
        self.assertEqual(fee(244), 488)

    def test_fee_245(self):
        self.assertEqual(fee(245), 490)

    def test_fee_246(self):
        self.assertEqual(fee(246), 492)

    def test_fee_247(self):
        self.assertEqual(fee(247), 494)

    def test_fee_248(self):
        self.assertEqual(fee(248), 496)

    def test_fee_249(self):
        self.assertEqual(fee(249), 498)

    def test_fee_250(self):
        self.assertEqual(fee(250), 500)

    def test_fee_251(self):
        self.assertEqual(fee(251), 507)

    def test_fee_252(self):
        self.assertEqual(fee(252), 509)

    def test_fee_253(self):
        self.assertEqual(fee(253), 511)

    def test_fee_254(self):
        self.assertEqual(fee(254), 513)

    def test_fee_255(self):
        self.assertEqual(fee(255), 515)

    def test_fee_256(self):
        self.assertEqual(fee(256), 517)

    def test_fee_257(self):
        self.assertEqual(fee(257), 519)

    def test_fee_258(self):
        self.assertEqual(fee(258), 521)

    def test_fee_259(self):
        self.assertEqual(fee(259), 523)

    def test_fee_260(self):
        self.assertEqual(fee(260), 525)

    def test_fee_261(self):
        self.assertEqual(fee(261), 527)

    def test_fee_262(self):
        self.assertEqual(fee(262), 529)

    def test_fee_263(self):
        self.assertEqual(fee(263), 531)

    def test_fee_264(self):
        self.assertEqual(fee(264), 533)

    def test_fee_265(self):
        self.assertEqual(fee(265), 535)

    def test_fee_266(self):
        self.assertEqual(fee(266), 537)

    def test_fee_267(self):
        self.assertEqual(fee(267), 539)

    def test_fee_268(self):
        self.assertEqual(fee(268), 541)

    def test_fee_269(self):
        self.assertEqual(fee(269), 543)

    def test_fee_270(self):
        self.assertEqual(fee(270), 545)

    def test_fee_271(self):
        self.assertEqual(fee(271), 547)

    def test_fee_272(self):
        self.assertEqual(fee(272), 549)

    def test_fee_273(self):
        self.assertEqual(fee(273), 551)

    def test_fee_274(self):
        self.assertEqual(fee(274), 553)

    def test_fee_275(self):
        self.assertEqual(fee(275), 555)

    def test_fee_276(self):
        self.assertEqual(fee(276), 557)

    def test_fee_277(self):
        self.assertEqual(fee(277), 559)

    def test_fee_278(self):
        self.assertEqual(fee(278), 561)

    def test_fee_279(self):
        self.assertEqual(fee(279), 563)

    def test_fee_280(self):
        self.assertEqual(fee(280), 565)

    def test_fee_281(self):
        self.assertEqual(fee(281), 567)

    def test_fee_282(self):
        self.assertEqual(fee(282), 569)

    def test_fee_283(self):
        self.assertEqual(fee(283), 571)

    def test_fee_284(self):
        self.assertEqual(fee(284), 573)

    def test_fee_285(self):
        self.assertEqual(fee(285), 575)

    def test_fee_286(self):
        self.assertEqual(fee(286), 577)

    def test_fee_287(self):
        self.assertEqual(fee(287), 579)

    def test_fee_288(self):
        self.assertEqual(fee(288), 581)

    def test_fee_289(self):
        self.assertEqual(fee(289), 583)

    def test_fee_290(self):
        self.assertEqual(fee(290), 585)

    def test_fee_291(self):
        self.assertEqual(fee(291), 587)

    def test_fee_292(self):
        self.assertEqual(fee(292), 589)

    def test_fee_293(self):
        self.assertEqual(fee(293), 591)

    def test_fee_294(self):
        self.assertEqual(fee(294), 593)

    def test_fee_295(self):
        self.assertEqual(fee(295), 595)

    def test_fee_296(self):
        self.assertEqual(fee(296), 597)

    def test_fee_297(self):
        self.assertEqual(fee(297), 599)

    def test_fee_298(self):
        self.assertEqual(fee(298), 601)

    def test_fee_299(self):
        self.assertEqual(fee(299), 603)

    def test_fee_300(self):
        self.assertEqual(fee(300), 605)

    def test_fee_rejects_zero(self):
        print('checking zero weight')
        self.assertRaises(ValueError, fee, 0)

