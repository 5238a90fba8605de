//! Prints the routing fixture (`firsttoken_core::testing::fixtures::routing_fixture`)
//! as a results file, for `scripts/test-litellm.sh`: the runner's
//! `report --config litellm` reads it and must write the golden
//! `tests/golden/litellm-router.yaml`. Built from the fixture each time, so
//! no megabyte of generated JSON is kept in the repository.

fn main() {
    print!("{}", firsttoken_core::testing::fixtures::routing_results());
}
