"""Prints what `python manage.py runserver` prints for a morning of traffic on a small shop (Django is not
installed on the recording machine); the traceback's frames follow Django 4.2's request handling."""
import random
from datetime import datetime, timedelta

rng = random.Random(23)
t = datetime(2026, 11, 26, 9, 14, 3)
SITE = "/work/project/.venv/lib/python3.11/site-packages/django"
print("Watching for file changes with StatReloader")
print("Performing system checks...")
print()
print("System check identified no issues (0 silenced).")
print("November 26, 2026 - 09:14:02")
print("Django version 4.2.7, using settings 'shop.settings'")
print("Starting development server at http://127.0.0.1:8000/")
print("Quit the server with CONTROL-C.")
print()
paths = ["/api/products/?page={n}", "/api/products/{id}/", "/api/cart/", "/static/css/app.css", "/static/js/app.js",
         "/api/orders/", "/", "/api/categories/"]
for i in range(820):
    t += timedelta(seconds=rng.randint(0, 3))
    stamp = t.strftime("%d/%b/%Y %H:%M:%S")
    if i in (41, 390, 702):
        print("Not Found: /favicon.ico")
        print(f'[{stamp}] "GET /favicon.ico HTTP/1.1" 404 2279')
        continue
    if i == 517:
        print("Internal Server Error: /api/orders/1842/refund/")
        print("Traceback (most recent call last):")
        print(f'  File "{SITE}/core/handlers/exception.py", line 55, in inner')
        print("    response = get_response(request)")
        print("               ^^^^^^^^^^^^^^^^^^^^^")
        print(f'  File "{SITE}/core/handlers/base.py", line 197, in _get_response')
        print("    response = wrapped_callback(request, *callback_args, **callback_kwargs)")
        print("               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print(f'  File "{SITE}/views/decorators/csrf.py", line 56, in wrapper_view')
        print("    return view_func(*args, **kwargs)")
        print("           ^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print(f'  File "{SITE}/views/generic/base.py", line 104, in view')
        print("    return self.dispatch(request, *args, **kwargs)")
        print("           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print('  File "/work/project/shop/orders/views.py", line 88, in post')
        print("    refund = services.refund(order, amount=request.data[\"amount\"])")
        print("             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print('  File "/work/project/shop/orders/services.py", line 41, in refund')
        print("    if amount > order.total - order.refunded_total:")
        print("       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^")
        print("TypeError: '>' not supported between instances of 'str' and 'decimal.Decimal'")
        print(f'[{stamp}] "POST /api/orders/1842/refund/ HTTP/1.1" 500 145821')
        continue
    path = rng.choice(paths).format(n=rng.randint(2, 30), id=rng.randint(1, 900))
    method = "POST" if path == "/api/cart/" and rng.random() < 0.4 else "GET"
    status = 304 if path.startswith("/static") and rng.random() < 0.6 else (201 if method == "POST" else 200)
    size = 0 if status == 304 else rng.randint(300, 24000)
    print(f'[{stamp}] "{method} {path} HTTP/1.1" {status} {size}')
    if i == 640:
        print("Watching for file changes with StatReloader")
        print("/work/project/shop/orders/services.py changed, reloading.")
        print("Performing system checks...")
        print()
        print("System check identified no issues (0 silenced).")
