/* LD_PRELOAD for SimGrid SMPI 3.32 (bench/smpi_collectives.sh, bench/smpi_compare.sh
 * --collectives): makes simgrid::smpi::Comm::init_smp() a no-op. The knomial broadcast SMPI's
 * `ompi` selector picks (bcast__mvapich2_knomial_intra_node) calls it on a communicator's first
 * broadcast; it builds SMPI's node-local and leader communicators with collectives of its own,
 * whose simulated time would be charged to that broadcast (and in -replay it races with the
 * other ranks and aborts). The broadcast itself runs over the whole communicator and never uses
 * those communicators, so what is simulated is otherwise unchanged. */
void _ZN7simgrid4smpi4Comm8init_smpEv(void* self);
void _ZN7simgrid4smpi4Comm8init_smpEv(void* self) {
  (void)self;
}
