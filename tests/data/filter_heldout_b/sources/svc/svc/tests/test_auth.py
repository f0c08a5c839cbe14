from svc.auth import check, roles, token_for


def test_token_stable_0():
    assert token_for('u0') == token_for('u0')


def test_token_stable_1():
    assert token_for('u1') == token_for('u1')


def test_token_stable_2():
    assert token_for('u2') == token_for('u2')


def test_token_stable_3():
    assert token_for('u3') == token_for('u3')


def test_token_stable_4():
    assert token_for('u4') == token_for('u4')


def test_token_stable_5():
    assert token_for('u5') == token_for('u5')


def test_token_stable_6():
    assert token_for('u6') == token_for('u6')


def test_token_stable_7():
    assert token_for('u7') == token_for('u7')


def test_token_stable_8():
    assert token_for('u8') == token_for('u8')


def test_token_stable_9():
    assert token_for('u9') == token_for('u9')


def test_token_stable_10():
    assert token_for('u10') == token_for('u10')


def test_token_stable_11():
    assert token_for('u11') == token_for('u11')


def test_token_stable_12():
    assert token_for('u12') == token_for('u12')


def test_token_stable_13():
    assert token_for('u13') == token_for('u13')


def test_token_stable_14():
    assert token_for('u14') == token_for('u14')


def test_token_stable_15():
    assert token_for('u15') == token_for('u15')


def test_token_stable_16():
    assert token_for('u16') == token_for('u16')


def test_token_stable_17():
    assert token_for('u17') == token_for('u17')


def test_token_stable_18():
    assert token_for('u18') == token_for('u18')


def test_token_stable_19():
    assert token_for('u19') == token_for('u19')


def test_token_stable_20():
    assert token_for('u20') == token_for('u20')


def test_token_stable_21():
    assert token_for('u21') == token_for('u21')


def test_token_stable_22():
    assert token_for('u22') == token_for('u22')


def test_token_stable_23():
    assert token_for('u23') == token_for('u23')


def test_token_stable_24():
    assert token_for('u24') == token_for('u24')


def test_token_stable_25():
    assert token_for('u25') == token_for('u25')


def test_token_stable_26():
    assert token_for('u26') == token_for('u26')


def test_token_stable_27():
    assert token_for('u27') == token_for('u27')


def test_token_stable_28():
    assert token_for('u28') == token_for('u28')


def test_token_stable_29():
    assert token_for('u29') == token_for('u29')


def test_token_stable_30():
    assert token_for('u30') == token_for('u30')


def test_token_stable_31():
    assert token_for('u31') == token_for('u31')


def test_token_stable_32():
    assert token_for('u32') == token_for('u32')


def test_token_stable_33():
    assert token_for('u33') == token_for('u33')


def test_token_stable_34():
    assert token_for('u34') == token_for('u34')


def test_token_stable_35():
    assert token_for('u35') == token_for('u35')


def test_token_stable_36():
    assert token_for('u36') == token_for('u36')


def test_token_stable_37():
    assert token_for('u37') == token_for('u37')


def test_token_stable_38():
    assert token_for('u38') == token_for('u38')


def test_token_stable_39():
    assert token_for('u39') == token_for('u39')


def test_roles_unknown_user():
    assert roles('eve') == []


def test_check_rejects_other_user():
    assert check('bob', token_for('alice')) is False


def test_admin_roles():
    assert 'delete' in roles('admin')
