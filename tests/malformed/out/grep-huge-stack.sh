# The one record of deepstack.sst, whose thread matches: the input.
$GEN deepstack.sst
