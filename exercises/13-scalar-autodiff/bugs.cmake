# The three mistakes planted in starter.cpp, each as the exact text that
# holds it and the text that fixes it. make_variants.cmake uses them to
# build the starter with one mistake at a time. (Spoilers: this file is
# the answer to the exercise.)
set(BUG_COUNT 3)

set(BUG_1_NAME "nodes visited from the first to the output: a node sends its gradient before it has one")
set(BUG_1_WRONG [=[for (std::size_t i = 0; i <= output; ++i) {
    const Node& n = nodes[i];]=])
set(BUG_1_RIGHT [=[for (std::size_t i = output + 1; i-- > 0;) {
    const Node& n = nodes[i];]=])

set(BUG_2_NAME "a contribution assigned, not added: a value used twice keeps only the last")
set(BUG_2_WRONG [=[grad[n.inputs[k]] = ]=])
set(BUG_2_RIGHT [=[grad[n.inputs[k]] += ]=])

set(BUG_3_NAME "the chain rule with the input's gradient instead of this node's")
set(BUG_3_WRONG [=[n.local_grads[k] * grad[n.inputs[k]];]=])
set(BUG_3_RIGHT [=[n.local_grads[k] * grad[i];]=])
