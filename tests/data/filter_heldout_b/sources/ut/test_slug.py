import unittest


def slugify(s):
    return s.lower().replace(' ', '-')


class SlugTests(unittest.TestCase):
    def test_word_0(self):
        self.assertEqual(slugify('W0'), 'w0')

    def test_word_1(self):
        self.assertEqual(slugify('W1'), 'w1')

    def test_word_2(self):
        self.assertEqual(slugify('W2'), 'w2')

    def test_word_3(self):
        self.assertEqual(slugify('W3'), 'w3')

    def test_word_4(self):
        self.assertEqual(slugify('W4'), 'w4')

    def test_word_5(self):
        self.assertEqual(slugify('W5'), 'w5')

    def test_word_6(self):
        self.assertEqual(slugify('W6'), 'w6')

    def test_word_7(self):
        self.assertEqual(slugify('W7'), 'w7')

    def test_word_8(self):
        self.assertEqual(slugify('W8'), 'w8')

    def test_word_9(self):
        self.assertEqual(slugify('W9'), 'w9')

    def test_word_10(self):
        self.assertEqual(slugify('W10'), 'w10')

    def test_word_11(self):
        self.assertEqual(slugify('W11'), 'w11')

    def test_word_12(self):
        self.assertEqual(slugify('W12'), 'w12')

    def test_word_13(self):
        self.assertEqual(slugify('W13'), 'w13')

    def test_word_14(self):
        self.assertEqual(slugify('W14'), 'w14')

    def test_word_15(self):
        self.assertEqual(slugify('W15'), 'w15')

    def test_word_16(self):
        self.assertEqual(slugify('W16'), 'w16')

    def test_word_17(self):
        self.assertEqual(slugify('W17'), 'w17')

    def test_word_18(self):
        self.assertEqual(slugify('W18'), 'w18')

    def test_word_19(self):
        self.assertEqual(slugify('W19'), 'w19')

    def test_word_20(self):
        self.assertEqual(slugify('W20'), 'w20')

    def test_word_21(self):
        self.assertEqual(slugify('W21'), 'w21')

    def test_word_22(self):
        self.assertEqual(slugify('W22'), 'w22')

    def test_word_23(self):
        self.assertEqual(slugify('W23'), 'w23')

    def test_word_24(self):
        self.assertEqual(slugify('W24'), 'w24')

    def test_word_25(self):
        self.assertEqual(slugify('W25'), 'w25')

    def test_word_26(self):
        self.assertEqual(slugify('W26'), 'w26')

    def test_word_27(self):
        self.assertEqual(slugify('W27'), 'w27')

    def test_word_28(self):
        self.assertEqual(slugify('W28'), 'w28')

    def test_word_29(self):
        self.assertEqual(slugify('W29'), 'w29')

    def test_punctuation(self):
        self.assertEqual(slugify('Hello, World!'), 'hello-world')

    def test_none(self):
        self.assertEqual(slugify(None), '')

    def test_unicode(self):
        self.assertTrue(slugify('Ä b').isascii(), 'slug must be ascii')

