import CSystemd
// Placeholder until this target's issue lands.
