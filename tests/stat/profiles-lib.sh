# profiles-lib.sh: the emulator's built-in profiles as the stat and emu
# tests walk them (sourced after tests/lib.sh, with H the hpmstat and J the
# jsoncheck under test and dir the test's temporary folder: profiles_start
# sets all three).
#
# profiles_start: what a test of every profile starts with: H, J, the
# scratch folder $dir, and its first point, profiles_json
profiles_start() {
	H=$HPMSTAT J=$JSONCHECK
	scratch_dir
	profiles_json >/dev/null 2>"$tap_err"
	ok $? "emu profiles --json"
}
#
# profiles_json: `hpmstat emu profiles --json` into $dir/profiles.json;
# prints how many profiles it lists
profiles_json() {
	$H emu profiles --json >"$dir/profiles.json"
	$J '#' <"$dir/profiles.json"
}
# profile_name I: the name of profile I (its index in that list)
profile_name() { $J "$1.name" <"$dir/profiles.json"; }
# mix_profiles: the indexes of the profiles whose harts run the declared
# mix. A profile with a task schedule is left out: its harts run the
# schedule, idle time and tasks that start and exit included, not the
# declared mix of every task running all the time (tests/emu-tasks checks
# those against ground truth).
mix_profiles() {
	_n=$($J '#' <"$dir/profiles.json") _i=0
	while [ $_i -lt "$_n" ]; do
		[ "$($J $_i.tasks <"$dir/profiles.json")" = "(missing)" ] && echo $_i
		_i=$((_i + 1))
	done
}
# declared I KEY...: profile I's declared shares under each KEY (as
# declared.level1, declared_variants.slots.level2), one "node share" a line
declared() {
	_i=$1 _keys=
	shift
	for _k in "$@"; do _keys="$_keys $_i.$_k"; done
	$J $_keys <"$dir/profiles.json" | tr -d '{}"' | tr ',' '\n' | sed 's/:/ /'
}
