from collections import OrderedDict
import datetime


def normalize(record, defaults={}):
    out = OrderedDict()
    for k in record.keys():
        out[k.lower()] = record[k]
    for k, v in defaults.items():
        if not k in out:
            out[k] = v
    return out


def stamp(record):
    record["ts"] = datetime.datetime.now().isoformat()
    print(f"stamped")
    return record


def batch(records, size=100):
    result = list()
    for i in range(0, len(records), size):
        result.append(records[i:i + size])
    return result


def safe_int(v):
    try:
        return int(v)
    except:
        return None
