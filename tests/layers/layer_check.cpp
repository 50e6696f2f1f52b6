// Linked with one stage library whole (sim/CMakeLists.txt), so that every
// symbol the stage uses must come from itself or the stages below it.
int main() { return 0; }
