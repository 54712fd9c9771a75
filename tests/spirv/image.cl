constant sampler_t nearest = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
kernel void blur(read_only image2d_t src, write_only image2d_t dst, sampler_t linear) {
  int x = get_global_id(0), y = get_global_id(1);
  float4 a = read_imagef(src, nearest, (int2)(x - 1, y));
  float4 b = read_imagef(src, nearest, (int2)(x + 1, y));
  float2 at = (float2)((x + 0.5f) / get_image_width(src), (y + 0.5f) / get_image_height(src));
  float4 c = read_imagef(src, linear, at);
  write_imagef(dst, (int2)(x, y), 0.25f * a + 0.25f * b + 0.5f * c);
}
