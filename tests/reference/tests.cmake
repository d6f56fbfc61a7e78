# Outside references: python3-onnx (checker, strict shape inference) and ONNX Runtime (tools/ort).
# Each test skips (77) when its reference is unavailable; setup fixtures install/fetch idempotently.
set(FW_REF_DIR ${CMAKE_BINARY_DIR}/reference)
add_test(NAME reference_ort_setup COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/ort_setup.sh)
set_tests_properties(reference_ort_setup PROPERTIES FIXTURES_SETUP ort TIMEOUT 600)
add_test(NAME reference_realworld_fetch COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/fetch_realworld.sh ${CMAKE_BINARY_DIR}/realworld)
set_tests_properties(reference_realworld_fetch PROPERTIES FIXTURES_SETUP realworld TIMEOUT 600)

add_test(NAME reference_zoo_checker
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh zoo-checker $<TARGET_FILE:fwb> ${FW_REF_DIR}/zoo_checker)
add_test(NAME reference_zoo_vs_ort
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh zoo-ort $<TARGET_FILE:fwb> ${FW_REF_DIR}/zoo_ort)
add_test(NAME reference_realworld
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh realworld $<TARGET_FILE:fwb> ${FW_REF_DIR}/realworld ${CMAKE_BINARY_DIR}/realworld)
add_test(NAME realworld_simulate_no_flags
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh realworld-sim $<TARGET_FILE:fwb> ${FW_REF_DIR}/realworld_sim ${CMAKE_BINARY_DIR}/realworld)
add_test(NAME reference_realworld_fused_vs_ort
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh realworld-fused $<TARGET_FILE:fwb> ${FW_REF_DIR}/realworld_fused ${CMAKE_BINARY_DIR}/realworld)
add_test(NAME reference_zoo_fused_vs_ort
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh zoo-fused-ort $<TARGET_FILE:fwb> ${FW_REF_DIR}/zoo_fused_ort)
set_tests_properties(reference_zoo_checker reference_zoo_vs_ort reference_realworld reference_zoo_fused_vs_ort
  realworld_simulate_no_flags reference_realworld_fused_vs_ort PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 900)
set_tests_properties(reference_zoo_vs_ort reference_zoo_fused_vs_ort PROPERTIES FIXTURES_REQUIRED ort)
set_tests_properties(reference_realworld reference_realworld_fused_vs_ort PROPERTIES FIXTURES_REQUIRED "ort;realworld")
set_tests_properties(realworld_simulate_no_flags PROPERTIES FIXTURES_REQUIRED realworld)

# The fused export keeps the model's contract: every real-world model with symbolic input dims,
# fused at -O2, has the original's signature in ORT and equals the original at two bindings.
add_test(NAME reference_realworld_fused_signature
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/signature_check.py $<TARGET_FILE:fwb> ${CMAKE_BINARY_DIR}/realworld/models
          ${CMAKE_SOURCE_DIR}/tools/ort ${FW_REF_DIR}/signature)
set_tests_properties(reference_realworld_fused_signature PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
  FIXTURES_REQUIRED "ort;realworld")

# Real PyTorch-exporter models (scripts/export_torch_models.py, seeded random weights, made at test time
# with Debian's python3-torch/python3-torchvision; skipped when torch cannot be installed or imported).
add_test(NAME reference_torch_exports_make
  COMMAND bash ${CMAKE_SOURCE_DIR}/scripts/torch_exports.sh ${CMAKE_BINARY_DIR}/torch_exports)
set_tests_properties(reference_torch_exports_make PROPERTIES FIXTURES_SETUP torch_exports TIMEOUT 900 SKIP_RETURN_CODE 77)
add_test(NAME reference_torch_exports
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh torch $<TARGET_FILE:fwb> ${FW_REF_DIR}/torch ${CMAKE_BINARY_DIR}/torch_exports)
add_test(NAME torch_exports_simulate_no_flags
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh torch-sim $<TARGET_FILE:fwb> ${FW_REF_DIR}/torch_sim ${CMAKE_BINARY_DIR}/torch_exports)
add_test(NAME torch_exports_fused_vs_ort
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/reference_check.sh torch-fused $<TARGET_FILE:fwb> ${FW_REF_DIR}/torch_fused ${CMAKE_BINARY_DIR}/torch_exports)
set_tests_properties(reference_torch_exports torch_exports_simulate_no_flags torch_exports_fused_vs_ort PROPERTIES
  SKIP_RETURN_CODE 77 TIMEOUT 900)
set_tests_properties(reference_torch_exports torch_exports_fused_vs_ort PROPERTIES FIXTURES_REQUIRED "ort;torch_exports")
set_tests_properties(torch_exports_simulate_no_flags PROPERTIES FIXTURES_REQUIRED torch_exports)
add_test(NAME torch_exports_fused_signature
  COMMAND /usr/bin/python3 ${CMAKE_CURRENT_LIST_DIR}/signature_check.py $<TARGET_FILE:fwb> ${CMAKE_BINARY_DIR}/torch_exports/models
          ${CMAKE_SOURCE_DIR}/tools/ort ${FW_REF_DIR}/torch_signature)
set_tests_properties(torch_exports_fused_signature PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 900
  FIXTURES_REQUIRED "ort;torch_exports")
