# The desk's gunicorn settings: access and error log into one stream, as the service's journal shows them.
workers = 3
timeout = 4
loglevel = "debug"
accesslog = "-"
errorlog = "-"
access_log_format = '%(h)s - - %(t)s "%(r)s" %(s)s %(b)s %(M)sms "%(a)s"'
