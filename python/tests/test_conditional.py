# SPDX-License-Identifier: Apache-2.0
# Copyright 2026 The perfshap authors
"""perfshap.shap(..., conditional="gaussian"): the dependence-aware value function on a user's
own function. A linear model under correlated normal features has the closed form
v(S) = f(x_S, mu_O + Sigma_OS Sigma_SS^-1 (x_S - mu_S)) with the background's mean and
covariance; its Shapley values, enumerated here, must lie within 4 of the reported standard
errors (which carry the draws' Monte Carlo error). The marginal values differ from them where
the features are correlated."""
import itertools
import math

import numpy as np
import pytest

import perfshap

F = 5
BETA = np.array([1.0, -2.0, 0.5, 3.0, 1.5])


def ar1(n, rho, seed):
    rng = np.random.default_rng(seed)
    cov = np.array([[rho ** abs(i - j) for j in range(F)] for i in range(F)])
    return rng.multivariate_normal(np.arange(F) * 0.5, cov, size=n)


def f(X):
    return X @ BETA + 0.3


def shapley_of(v, players):
    phi = np.zeros(players)
    for i in range(players):
        others = [j for j in range(players) if j != i]
        for k in range(players):
            for T in itertools.combinations(others, k):
                w = math.factorial(k) * math.factorial(players - k - 1) / math.factorial(players)
                phi[i] += w * (v(sorted(list(T) + [i])) - v(list(T)))
    return phi


def exact_conditional(x, background):
    m = background.mean(axis=0)
    C = np.cov(background.T)

    def v(S):
        O = [j for j in range(F) if j not in S]
        z = x.copy()
        if O:
            z[O] = m[O] + (C[np.ix_(O, S)] @ np.linalg.solve(C[np.ix_(S, S)], x[S] - m[S]) if S else 0.0)
        return f(z[None, :])[0]

    return shapley_of(v, F)


def test_gaussian_values_of_a_linear_function_within_their_standard_errors():
    background = ar1(1000, 0.8, 0)
    X = ar1(3, 0.8, 1)
    r = perfshap.shap(f, X, background=background, conditional="gaussian", conditional_samples=1000,
                      solver="exact", seed=3)
    assert r["conditional"] == "gaussian" and r["conditional_samples"] == 1000
    values = np.asarray(r.values)
    se = np.asarray(r.phi_se).reshape(values.shape)
    for i, x in enumerate(X):
        exact = exact_conditional(x, background)
        assert np.all(np.abs(values[i] - exact) <= 4 * se[i] + 1e-12), (values[i], exact, se[i])
        assert abs(values[i].sum() + np.asarray(r.base_values).ravel()[i] - f(x[None, :])[0]) < 1e-9
    marginal = perfshap.shap(f, X, background=background, solver="exact")
    # With correlation 0.8 the conditional values move far from the marginal beta_j (x_j - mean_j).
    assert np.max(np.abs(np.asarray(marginal.values) - values)) > 10 * se.max()
    # The run reports the marginal explanation beside its own (mean |phi| a player, with ranks) and
    # its background's correlations.
    side = r.json["marginal_comparison"]["players"]
    mean_abs = np.abs(np.asarray(marginal.values)).mean(axis=0)
    for j, name in enumerate(r.json["players"]):
        assert side[name]["marginal"] == pytest.approx(mean_abs[j], rel=1e-12)
        assert side[name]["conditional"] == pytest.approx(np.abs(values[:, j]).mean(), rel=1e-12)
    assert np.allclose(r.json["dependence"]["correlation"], np.corrcoef(background.T), atol=1e-12)


@pytest.mark.parametrize("approach", ["gaussian", "copula", "empirical", "ctree"])
def test_every_value_function_adds_up_and_says_which_it_is(approach):
    background = ar1(300, 0.6, 0)
    X = ar1(2, 0.6, 1)
    r = perfshap.shap(lambda Z: np.tanh(Z) @ BETA, X, background=background, conditional=approach,
                      conditional_samples=100, solver="exact", seed=2)
    assert r["conditional"] == approach
    values = np.asarray(r.values)
    prediction = np.tanh(X) @ BETA
    assert np.allclose(values.sum(axis=1) + np.asarray(r.base_values).ravel(), prediction, atol=1e-9)
    assert np.all(np.asarray(r.phi_se) > 0)


@pytest.mark.parametrize("approach", ["gaussian", "copula", "empirical", "ctree"])
def test_interaction_values_under_a_conditional_value_function_add_up_to_its_values(approach):
    background = ar1(300, 0.6, 0)
    X = ar1(2, 0.6, 1)
    options = dict(background=background, conditional=approach, conditional_samples=100, solver="exact", seed=2)
    r = perfshap.shap(lambda Z: np.tanh(Z) @ BETA, X, interactions=True, **options)
    m = np.asarray(r.interactions)  # rows x (features + bias) x (features + 1)
    assert m.shape == (2, F + 1, F + 1)
    np.testing.assert_allclose(m[:, :F, :F].sum(axis=2), np.asarray(r.values), rtol=0, atol=1e-10)
    alone = perfshap.shap(lambda Z: np.tanh(Z) @ BETA, X, **options)
    np.testing.assert_array_equal(np.asarray(alone.values), np.asarray(r.values))


def test_regression_of_a_linear_function_is_its_closed_form():
    """With the linear regressor, each coalition's regression of a linear f on its features is
    the closed form's conditional mean exactly (least squares recovers it): no draws, no error."""
    background = ar1(400, 0.8, 0)
    X = ar1(3, 0.8, 1)
    r = perfshap.shap(f, X, background=background, conditional="regression", solver="exact")
    assert r["conditional"] == "regression" and r["regression_model"] == "linear"
    values = np.asarray(r.values)
    for i, x in enumerate(X):
        assert np.allclose(values[i], exact_conditional(x, background), atol=1e-9)
    forest = perfshap.shap(f, X, background=background, conditional="regression", regression_model="forest",
                           solver="exact")
    assert forest["regression_model"] == "forest"
    assert np.allclose(np.asarray(forest.values).sum(axis=1) + np.asarray(forest.base_values).ravel(),
                       f(X), atol=1e-9)


def test_conditional_needs_the_interventional_approach_and_enough_draws():
    background = ar1(50, 0.5, 0)
    X = ar1(2, 0.5, 1)
    with pytest.raises(ValueError, match="conditional_samples"):
        perfshap.shap(f, X, background=background, conditional="gaussian", conditional_samples=3)
    with pytest.raises(ValueError, match="marginal or gaussian|marginal, gaussian"):
        perfshap.shap(f, X, background=background, conditional="vine")


def test_xper_of_a_linear_function_under_gaussian_draws_matches_its_closed_form():
    """XPER's MSE under the gaussian value function: the expected squared error of f(x_S, X_O)
    given x_S is the squared error at the conditional mean plus beta_O' Sigma_{O|S} beta_O, so
    v(S) has a closed form; the Shapley values of it must lie within 4 reported standard errors."""
    background = ar1(2000, 0.7, 4)
    X = ar1(40, 0.7, 3)
    y = f(X) + np.random.default_rng(5).normal(size=len(X))
    r = perfshap.xper(X, y, model=f, metric="mse", conditional="gaussian", background=background,
                      conditional_samples=1000, seed=1)
    assert r["conditional"] == "gaussian" and r["background_rows"] == len(background)
    m, C = background.mean(axis=0), np.cov(background.T)

    def v(S):
        O = [j for j in range(F) if j not in S]
        Z = X.copy()
        spread = 0.0
        if O:
            if S:
                Z[:, O] = m[O] + (X[:, S] - m[S]) @ np.linalg.solve(C[np.ix_(S, S)], C[np.ix_(S, O)])
                cov = C[np.ix_(O, O)] - C[np.ix_(O, S)] @ np.linalg.solve(C[np.ix_(S, S)], C[np.ix_(S, O)])
            else:
                Z[:, O] = m[O]
                cov = C[np.ix_(O, O)]
            spread = BETA[O] @ cov @ BETA[O]
        return -np.mean((y - f(Z)) ** 2) - spread

    exact = shapley_of(v, F)
    phi, se = np.asarray(r["phi"]), np.asarray(r["phi_se"])
    assert np.all(np.abs(phi - exact) <= 4 * se + 1e-12), (phi, exact, se)
    assert abs(r["base"] + phi.sum() - r["value"]) < 1e-9
    assert abs(r["value"] + np.mean((y - f(X)) ** 2)) < 1e-9
    with pytest.raises(ValueError, match="not one of marginal, gaussian, copula, empirical, ctree"):
        perfshap.xper(X, y, model=f, metric="mse", conditional="regression")
