# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "the step counted from 0: the first bias correction divides by 0")
set(BUG_1_WRONG [=[static_cast<double>(state.step++);]=])
set(BUG_1_RIGHT [=[static_cast<double>(++state.step);]=])

set(BUG_2_NAME "weight decay added to the gradient instead of decoupled")
set(BUG_2_WRONG [=[
    const double g = grad[k] + lambda * theta[k];
]=])
set(BUG_2_RIGHT [=[
    const double g = grad[k];
]=])
set(BUG_2_WRONG_2 [=[
    theta[k] -= o.lr * (m_hat / (std::sqrt(v_hat) + o.eps));
]=])
set(BUG_2_RIGHT_2 [=[
    theta[k] -= o.lr * (m_hat / (std::sqrt(v_hat) + o.eps) +
                        lambda * theta[k]);
]=])

set(BUG_3_NAME "bias correction missing")
set(BUG_3_WRONG [=[m_hat = state.m[k], v_hat = state.v[k];]=])
set(BUG_3_RIGHT [=[m_hat = state.m[k] / c1, v_hat = state.v[k] / c2;]=])
