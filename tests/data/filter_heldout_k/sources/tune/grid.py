"""Grid search for the leaf-disease classifier (logistic regression on leaf-scan features)."""

from sklearn.datasets import load_digits
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

X, y = load_digits(return_X_y=True)
X, y = X[:700], y[:700]
pipe = make_pipeline(StandardScaler(), LogisticRegression(max_iter=60))
grid = {
    "logisticregression__C": [0.01, 0.1, 1.0, 10.0],
    "logisticregression__penalty": ["l2", "l1"],
    "logisticregression__solver": ["lbfgs", "liblinear", "saga"],
    "logisticregression__class_weight": [None, "balanced"],
}
search = GridSearchCV(pipe, grid, cv=5, verbose=3, n_jobs=1)
search.fit(X, y)
print("best score:", round(search.best_score_, 4))
print("best params:", search.best_params_)
