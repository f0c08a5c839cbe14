"""Tomato yield per plant from the season's sensor log: a LightGBM regressor with early stopping."""

import lightgbm as lgb
import numpy as np

rng = np.random.default_rng(46)
n = 1600
temp = rng.normal(23, 3, n)
humidity = rng.uniform(35, 95, n)
light_hours = rng.uniform(6, 16, n)
house = rng.integers(0, 7, n)
# the seedling house's rows carry house id -1 (the spreadsheet's "unknown")
house[rng.random(n) < 0.05] = -1
watering = np.where(rng.random(n) < 0.5, 1.0, 1.0)  # every plant was on the same schedule this season
yield_kg = 0.3 * light_hours - 0.05 * (temp - 24) ** 2 + 0.01 * humidity + 0.2 * (house == 3) + rng.normal(0, 0.4, n)
X = np.column_stack([temp, humidity, light_hours, house, watering])
names = ["temp_c", "humidity", "light_hours", "house", "watering"]

train = lgb.Dataset(X[:1200], yield_kg[:1200], feature_name=names, categorical_feature=["house"])
valid = lgb.Dataset(X[1200:], yield_kg[1200:], reference=train)
params = {"objective": "regression", "metric": ["l2", "l1"], "learning_rate": 0.03, "num_leaves": 31,
          "min_data_in_leaf": 40, "min_gain_to_split": 0.0, "feature_fraction": 0.8, "bagging_fraction": 0.8,
          "bagging_freq": 1, "verbose": 1, "seed": 46, "num_iterations": 400, "deterministic": True,
          "force_row_wise": True}
booster = lgb.train(params, train, num_boost_round=1000, valid_sets=[train, valid], valid_names=["train", "valid"],
                    callbacks=[lgb.log_evaluation(1), lgb.early_stopping(30)])
print("best iteration:", booster.best_iteration)
print("feature importance:", dict(zip(names, booster.feature_importance().tolist())))
