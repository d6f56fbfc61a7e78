# The broken-model corpus (tests/data/bad, made by scripts/make_bad_models.py): every verb on every case.
add_test(NAME bad_model_corpus
  COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/run_corpus.sh $<TARGET_FILE:fwb> ${CMAKE_BINARY_DIR}/bad_corpus)
set_tests_properties(bad_model_corpus PROPERTIES TIMEOUT 900)
