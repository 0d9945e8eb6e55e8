#version 460
// Whether the device fuses fma(): values[3] = fma(values[0], values[1], values[2]), which the
// host chooses so that a fused and an unfused result differ (fused_multiply_add.hpp).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_scalar_block_layout : require

layout(local_size_x = 1) in;
layout(buffer_reference, scalar) buffer Values { float at[]; };
layout(push_constant, scalar) uniform Push { Values values; } pc;

void main() {
  precise float result = fma(pc.values.at[0], pc.values.at[1], pc.values.at[2]);
  pc.values.at[3] = result;
}
