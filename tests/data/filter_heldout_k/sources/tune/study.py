"""Which SGD classifier recognises the seed-packet digits best: an optuna study with pruning."""

import logging
import sys

import numpy as np
import optuna
from sklearn.datasets import load_digits
from sklearn.linear_model import SGDClassifier
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import StandardScaler

logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="%(levelname)s %(name)s: %(message)s")
log = logging.getLogger("packets")
optuna.logging.enable_propagation()
optuna.logging.disable_default_handler()

X, y = load_digits(return_X_y=True)
X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.3, random_state=46)
scaler = StandardScaler().fit(X_train)
X_train, X_val = scaler.transform(X_train), scaler.transform(X_val)
classes = np.unique(y)


def objective(trial):
    penalty = trial.suggest_categorical("penalty", ["l2", "l1", "elasticnet", "none"])
    alpha = trial.suggest_float("alpha", 1e-6, 1e-1, log=True)
    schedule = trial.suggest_categorical("learning_rate", ["optimal", "constant", "adaptive"])
    eta0 = trial.suggest_float("eta0", 1e-4, 10.0, log=True)
    model = SGDClassifier(loss="log_loss", penalty=penalty, alpha=alpha, learning_rate=schedule, eta0=eta0,
                          random_state=trial.number)
    for epoch in range(8):
        model.partial_fit(X_train, y_train, classes=classes)
        accuracy = model.score(X_val, y_val)
        log.info("trial %d epoch %d: validation accuracy %.4f", trial.number, epoch, accuracy)
        trial.report(accuracy, epoch)
        if trial.should_prune():
            raise optuna.TrialPruned()
    loss = float(np.mean(np.abs(model.coef_)))
    if not np.isfinite(loss):
        log.warning("trial %d: coefficients overflowed", trial.number)
        return float("nan")
    return accuracy


study = optuna.create_study(study_name="seed-packets", direction="maximize",
                            sampler=optuna.samplers.TPESampler(seed=46),
                            pruner=optuna.pruners.MedianPruner(n_startup_trials=5, n_warmup_steps=2))
study.optimize(objective, n_trials=70, catch=(ValueError,))
complete = [t for t in study.trials if t.state == optuna.trial.TrialState.COMPLETE]
pruned = [t for t in study.trials if t.state == optuna.trial.TrialState.PRUNED]
failed = [t for t in study.trials if t.state == optuna.trial.TrialState.FAIL]
print(f"trials: {len(complete)} complete, {len(pruned)} pruned, {len(failed)} failed")
print(f"best trial {study.best_trial.number}: accuracy {study.best_value:.4f} with {study.best_params}")
