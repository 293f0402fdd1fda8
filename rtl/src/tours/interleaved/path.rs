//! A move written into a walk's path. The path is bit-sliced
//! (`MovePath::sliced`): the move from level k has its three bits at k,
//! 16 + k and 32 + k, so writing one is a bit set or cleared in each plane.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PathWrite {
    pub path: Signal<In, Bits<48>>,
    /// The level, one-hot (0 writes nothing), and its move's number.
    pub level_bit: Signal<In, Bits<16>>,
    pub move_index: Signal<In, Bits<3>>,
    pub written: Signal<Out, Bits<48>>,

    plane_shift: Constant<Bits<8>>,
    two_planes: Constant<Bits<8>>,
    planes: [Signal<Local, Bits<16>>; 3],
}

impl Default for PathWrite {
    fn default() -> Self {
        PathWrite {
            path: Default::default(),
            level_bit: Default::default(),
            move_index: Default::default(),
            written: Default::default(),
            plane_shift: Constant::new(16.into()),
            two_planes: Constant::new(32.into()),
            planes: Default::default(),
        }
    }
}

impl Logic for PathWrite {
    #[hdl_gen]
    fn update(&mut self) {
        self.planes[0].next = self.path.val().get_bits::<16>(0) & !self.level_bit.val();
        if self.move_index.val().get_bit(0) {
            self.planes[0].next = self.path.val().get_bits::<16>(0) | self.level_bit.val();
        }
        self.planes[1].next = self.path.val().get_bits::<16>(16) & !self.level_bit.val();
        if self.move_index.val().get_bit(1) {
            self.planes[1].next = self.path.val().get_bits::<16>(16) | self.level_bit.val();
        }
        self.planes[2].next = self.path.val().get_bits::<16>(32) & !self.level_bit.val();
        if self.move_index.val().get_bit(2) {
            self.planes[2].next = self.path.val().get_bits::<16>(32) | self.level_bit.val();
        }
        self.written.next = bit_cast::<48, 16>(self.planes[0].val())
            | (bit_cast::<48, 16>(self.planes[1].val()) << self.plane_shift.val())
            | (bit_cast::<48, 16>(self.planes[2].val()) << self.two_planes.val());
    }
}
